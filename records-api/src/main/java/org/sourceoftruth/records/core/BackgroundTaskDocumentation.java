package org.sourceoftruth.records.core;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.sourceoftruth.records.api.openapi.OpenApiContribution;
import org.sourceoftruth.records.api.openapi.OpenApiDocument;

/**
 * The background-task API {@link BackgroundTaskProxy} forwards to the webhook dispatcher, in the
 * OpenAPI document with NetBox's paths and operation ids (superuser tokens). Its objects are
 * NetBox's RQ shapes, described as free objects: the dispatcher owns them.
 */
@ApplicationScoped
public class BackgroundTaskDocumentation implements OpenApiContribution {

    @Override
    public void contribute(OpenAPI api) {
        readable(api, "background-queues", "name", "queue");
        readable(api, "background-workers", "name", "worker");
        readable(api, "background-tasks", "id", "task");
        for (String action : new String[] {"delete", "enqueue", "requeue", "stop"}) {
            Operation op = OpenApiDocument.operation(
                            "core_background_tasks_" + action + "_create", "core", "The task: " + action + " it.")
                    .addParameter(key("id"))
                    .responses(
                            OASFactory.createAPIResponses().addAPIResponse("200", OpenApiDocument.json("", object())));
            api.getPaths()
                    .addPathItem(
                            "/api/core/background-tasks/{id}/" + action + "/",
                            OASFactory.createPathItem().POST(op));
        }
    }

    private static void readable(OpenAPI api, String path, String key, String what) {
        String stem = "core_" + path.replace('-', '_');
        Schema page = OASFactory.createSchema()
                .addType(SchemaType.OBJECT)
                .addProperty("count", OASFactory.createSchema().addType(SchemaType.INTEGER))
                .addProperty(
                        "next",
                        OASFactory.createSchema().addType(SchemaType.STRING).addType(SchemaType.NULL))
                .addProperty(
                        "previous",
                        OASFactory.createSchema().addType(SchemaType.STRING).addType(SchemaType.NULL))
                .addProperty(
                        "results",
                        OASFactory.createSchema().addType(SchemaType.ARRAY).items(object()));
        PathItem list = OASFactory.createPathItem()
                .GET(OpenApiDocument.operation(
                                stem + "_list",
                                "core",
                                "Get the list of background " + what + "s (from the webhook dispatcher).")
                        .responses(
                                OASFactory.createAPIResponses().addAPIResponse("200", OpenApiDocument.json("", page))));
        PathItem one = OASFactory.createPathItem()
                .GET(OpenApiDocument.operation(stem + "_retrieve", "core", "Get one background " + what + ".")
                        .addParameter(key(key))
                        .responses(OASFactory.createAPIResponses()
                                .addAPIResponse("200", OpenApiDocument.json("", object()))));
        api.getPaths().addPathItem("/api/core/" + path + "/", list);
        api.getPaths().addPathItem("/api/core/" + path + "/{" + key + "}/", one);
    }

    private static Parameter key(String name) {
        return OASFactory.createParameter()
                .name(name)
                .in(Parameter.In.PATH)
                .required(true)
                .schema(OASFactory.createSchema().addType(SchemaType.STRING));
    }

    private static Schema object() {
        return OASFactory.createSchema()
                .addType(SchemaType.OBJECT)
                .additionalPropertiesSchema(OASFactory.createSchema());
    }
}
