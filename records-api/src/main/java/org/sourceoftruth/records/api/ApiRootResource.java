package org.sourceoftruth.records.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiConfig;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.web.Responses;

/** {@code /api/}, {@code /api/<app>/} and {@code /api/status/}. */
@Path("/api/")
public class ApiRootResource implements AnswersOptions {
    /** NetBox 4's application list, in its order. */
    static final List<String> APPS = List.of(
            "circuits",
            "core",
            "dcim",
            "extras",
            "ipam",
            "plugins",
            "status",
            "tenancy",
            "users",
            "virtualization",
            "vpn",
            "wireless");

    /**
     * The applications with a root of their own ({@link #APPS} but status, which has its
     * view), as the route's regular expression: another path under /api/ matches no route and
     * gets the JSON 404 for every method, where a looser pattern made it a 405 for POST.
     */
    static final String APP_PATHS = "circuits|core|dcim|extras|ipam|plugins|tenancy|users|virtualization|vpn|wireless";

    @Inject
    ModelRegistry registry;

    @Inject
    RequestContext request;

    @Inject
    Access access;

    @Context
    HttpHeaders headers;

    @Inject
    ApiConfig config;

    @ConfigProperty(name = "quarkus.application.version", defaultValue = "0.1.0")
    String serviceVersion;

    /**
     * Answers anonymous clients even with LOGIN_REQUIRED: pynetbox before 7.3.4 (Debian 12 ships
     * 7.0.0, which its Ansible collection uses) reads {@code nb.version} from this response's
     * API-Version header without sending its token. The body is only the fixed application list;
     * every other path keeps NetBox 4's rules.
     */
    @GET
    @Operation(hidden = true) // not in NetBox's document either
    public Response root() {
        ObjectNode out = Json.MAPPER.createObjectNode();
        for (String app : APPS) {
            out.put(app, request.baseUrl() + "/api/" + app + "/");
        }
        return Responses.json(200, out, headers);
    }

    @GET
    @Path("status/")
    @Operation(
            operationId = "status_retrieve",
            description =
                    "A lightweight read-only endpoint for conveying" + " the service's current operational status.")
    @Tag(name = "status")
    public Response status() {
        access.requireAuthenticated();
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.putNull("django-version");
        out.put("hostname", System.getenv().getOrDefault("HOSTNAME", "localhost"));
        ObjectNode apps = out.putObject("installed_apps");
        apps.put("quarkus", io.quarkus.runtime.Application.class.getPackage().getImplementationVersion());
        apps.put("sot-records-api", serviceVersion);
        out.put("netbox-version", config.apiVersion() + ".0");
        out.put("netbox-full-version", config.apiVersion() + ".0-sot-" + serviceVersion);
        out.putObject("plugins");
        out.putNull("python-version");
        out.put("java-version", System.getProperty("java.version"));
        out.put("sot-version", serviceVersion);
        out.put("rq-workers-running", 0);
        return Responses.json(200, out, headers);
    }

    @GET
    @Path("{app: " + APP_PATHS + "}/")
    public Response app(@PathParam("app") String app) {
        access.requireAuthenticated();
        ObjectNode out = Json.MAPPER.createObjectNode();
        registry.modelsOf(app)
                .forEach((path, m) -> out.put(path, request.baseUrl() + "/api/" + app + "/" + path + "/"));
        return Responses.json(200, out, headers);
    }

    @OPTIONS
    @Operation(hidden = true) // not in NetBox's document either
    @Path("status/")
    public Response statusOptions() {
        return AnswersOptions.ok();
    }

    @OPTIONS
    @Operation(hidden = true) // not in NetBox's document either
    @Path("{app: " + APP_PATHS + "}/")
    public Response appOptions() {
        return AnswersOptions.ok();
    }
}
