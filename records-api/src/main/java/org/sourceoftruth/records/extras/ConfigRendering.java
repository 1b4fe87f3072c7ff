package org.sourceoftruth.records.extras;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.ContentNegotiation;
import org.sourceoftruth.records.web.ErrorMapper;
import org.sourceoftruth.records.web.JsonBody;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.web.Responses;

/**
 * Config templates rendered (NetBox's RenderConfigMixin and ConfigTemplateRenderMixin):
 * <ul>
 *   <li>for a device or VM: its own template, else its role's, else its platform's; the context
 *       is its config context (merged as its {@code config_context} shows it), then the request
 *       body's keys, then the object itself under {@code device} or {@code virtualmachine} (its
 *       full API representation);</li>
 *   <li>for a template given by id: the request body is the whole context.</li>
 * </ul>
 * The answer is {@code {"configtemplate": <brief template>, "content": <text>}}, or the text
 * alone as text/plain when the client asks for it ({@code Accept: text/plain} or
 * {@code ?format=txt}). Rendering changes nothing; as NetBox, it needs a token that may write.
 */
@ApplicationScoped
public class ConfigRendering {
    @Inject
    ModelRegistry registry;

    @Inject
    ModelService service;

    @Inject
    Access access;

    @Inject
    RequestContext request;

    @Inject
    TemplateRendering rendering;

    @Inject
    AgroalDataSource dataSource;

    /** POST dcim/devices/{id}/render-config/ and virtualization/virtual-machines/{id}/render-config/. */
    public Response renderFor(Model model, long id, String body, HttpHeaders headers, String format) {
        requireRenderer(model);
        ObjectNode extra = context(body);
        ObjectNode object =
                (ObjectNode) service.get(model, id, full().redactingSensitive()).node();
        Long templateId = templateOf(model, id);
        String objectType = model.contentType().substring(model.contentType().indexOf('.') + 1);
        if (templateId == null) {
            ObjectNode error = Json.MAPPER
                    .createObjectNode()
                    .put("error", "No config template found for this " + objectType + ".");
            return Responses.json(400, error, headers);
        }
        Map<String, Object> context = new LinkedHashMap<>();
        if (object.get("config_context") instanceof ObjectNode configContext) {
            configContext
                    .fields()
                    .forEachRemaining(e -> context.put(e.getKey(), TemplateRendering.plain(e.getValue())));
        }
        extra.fields().forEachRemaining(e -> context.put(e.getKey(), TemplateRendering.plain(e.getValue())));
        context.put(objectType, TemplateRendering.plain(object));
        return render(templateId, context, headers, format);
    }

    /** POST extras/config-templates/{id}/render/: the body is the context. */
    public Response renderTemplate(long templateId, String body, HttpHeaders headers, String format) {
        requireRenderer(registry.require("extras.configtemplate"));
        Map<String, Object> context = new LinkedHashMap<>();
        context(body).fields().forEachRemaining(e -> context.put(e.getKey(), TemplateRendering.plain(e.getValue())));
        return render(templateId, context, headers, format);
    }

    private Response render(long templateId, Map<String, Object> context, HttpHeaders headers, String format) {
        Model templates = registry.require("extras.configtemplate");
        ObjectNode template =
                (ObjectNode) service.get(templates, templateId, full()).node();
        String output = rendering.render(
                template.path("template_code").asText(""), template.get("environment_params"), context);
        if (wantsText(headers, format)) {
            return Response.ok(output, MediaType.TEXT_PLAIN_TYPE.withCharset("utf-8"))
                    .build();
        }
        ObjectNode brief = Json.MAPPER.createObjectNode();
        for (String name : List.of("id", "url", "display", "name", "description")) {
            brief.set(name, template.get(name));
        }
        ObjectNode answer = Json.MAPPER.createObjectNode();
        answer.set("configtemplate", brief);
        answer.put("content", output);
        return Responses.json(200, answer, headers);
    }

    /** NetBox's check for this action: the object may be viewed, and the token may write (it is a POST). */
    private void requireRenderer(Model model) {
        access.require(model, Access.Action.VIEW);
        RequestContext.Caller caller = request.caller();
        if (caller != null && !caller.writeEnabled()) {
            throw ApiException.forbidden();
        }
    }

    /** The request body: nothing, or a JSON object of context data. */
    private static ObjectNode context(String body) {
        if (body == null || body.isBlank()) {
            return Json.MAPPER.createObjectNode();
        }
        JsonNode json = JsonBody.parse(body);
        if (!(json instanceof ObjectNode object)) {
            throw ApiException.field(
                    "non_field_errors",
                    "Invalid data. Expected a dictionary, but got " + ErrorMapper.jsonType(json) + ".");
        }
        return object;
    }

    /** NetBox's get_config_template: the object's own, else its role's, else its platform's. */
    private Long templateOf(Model model, long id) {
        try (Connection c = dataSource.getConnection()) {
            List<Row> rows = new Db(c)
                    .query(
                            "select coalesce(o.config_template_id, r.config_template_id,"
                                    + " p.config_template_id) as template_id from " + model.table() + " o"
                                    + " left join dcim_devicerole r on r.id = o.role_id left join dcim_platform p on p.id = o.platform_id"
                                    + " where o.id = ?",
                            id);
            return rows.isEmpty() ? null : rows.get(0).longValue("template_id");
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }

    /** DRF's renderer choice between JSON (first) and text: ?format=txt, or an Accept header preferring text/plain. */
    static boolean wantsText(HttpHeaders headers, String format) {
        try {
            return ContentNegotiation.select(
                            headers.getHeaderString(HttpHeaders.ACCEPT),
                            format,
                            ContentNegotiation.CONFIG_RENDERING,
                            null)
                    == ContentNegotiation.Renderer.TEXT;
        } catch (ApiException refused) {
            return false;
        }
    }

    private Renderer.Options full() {
        return new Renderer.Options(request.baseUrl(), Renderer.Mode.FULL, null, Set.of());
    }
}
