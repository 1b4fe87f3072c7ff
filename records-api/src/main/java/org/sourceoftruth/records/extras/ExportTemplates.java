package org.sourceoftruth.records.extras;

import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.model.memory.ByteBudget;
import org.sourceoftruth.records.api.ListExport;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.memory.HeapBudget;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;

/**
 * {@code GET <list>?export=<name>}: NetBox's ExportTemplatesMixin. The export template of that
 * name that applies to the list's model and that the caller may view renders the list's objects
 * (every object the filters, saved filters and permissions select, unpaginated, in the list's
 * order) as {@code queryset}: each object in its full API representation. The answer is the
 * rendered text with the template's MIME type (text/plain when it has none) and, when it is an
 * attachment, a Content-Disposition naming the file as NetBox does.
 */
@ApplicationScoped
public class ExportTemplates implements ListExport {
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
    HeapBudget budget;

    /** The heap an exported object of ordinary size takes, rendered and as a template's plain values. */
    static final long HEAP_PER_OBJECT = 16 * 1024;

    @Override
    public Response export(Model model, String name, Map<String, List<String>> query) {
        ObjectNode template = find(model, name);
        MediaType type = mediaType(template.path("mime_type").asText(""));
        // a template context, not an API response: no sensitive field (a webhook's secret) goes in
        Renderer.Options full =
                new Renderer.Options(request.baseUrl(), Renderer.Mode.FULL, null, Set.of()).redactingSensitive();
        ListQuery.Page objects = service.list(model, query, full, new ListQuery.PageRequest(null, 0, null));
        // Every object at once, as plain values, and the text made of them: held from the heap
        // budget until the response is sent (the list itself read only the objects' ids).
        ByteBudget.Reservation reserved = budget.reserve(2 * objects.rows().heapEstimate(HEAP_PER_OBJECT));
        String output;
        try {
            List<Object> queryset = new ArrayList<>(objects.results().size());
            objects.results().forEach(o -> queryset.add(TemplateRendering.plain(o)));
            output = rendering.render(
                    template.path("template_code").asText(""),
                    template.get("environment_params"),
                    Map.of("queryset", queryset));
        } catch (RuntimeException | Error e) {
            reserved.close();
            throw e;
        }
        budget.holdUntilResponseEnds(reserved);
        Response.ResponseBuilder response = Response.ok(output, type);
        if (template.path("as_attachment").asBoolean(true)) {
            response.header("Content-Disposition", attachment(template, model));
        }
        return response.build();
    }

    /** The template named {@code name} for the model's type among those the caller may view; else 404. */
    private ObjectNode find(Model model, String name) {
        Model templates = registry.require("extras.exporttemplate");
        if (name.isBlank() || !access.allows(templates, Access.Action.VIEW)) {
            throw ApiException.notFound();
        }
        Renderer.Options full = new Renderer.Options(request.baseUrl(), Renderer.Mode.FULL, null, Set.of());
        ListQuery.Page found = service.list(
                templates,
                Map.of("name", List.of(name), "object_types", List.of(model.contentType())),
                full,
                new ListQuery.PageRequest(1L, 0, null));
        if (found.results().isEmpty()) {
            throw ApiException.notFound();
        }
        return found.results().get(0);
    }

    /** NetBox serves the MIME type as saved; one that is no MIME type at all cannot be served. */
    private static MediaType mediaType(String mime) {
        if (mime.isBlank()) {
            return MediaType.TEXT_PLAIN_TYPE;
        }
        try {
            return MediaType.valueOf(mime.trim());
        } catch (IllegalArgumentException e) {
            throw ApiException.field("mime_type", "The export template's MIME type is not valid: " + mime);
        }
    }

    /** {@code attachment; filename="<file_name or netbox_<objects>><.extension>"}, as NetBox names it. */
    static String attachment(ObjectNode template, Model model) {
        String fileName = template.path("file_name").asText("");
        String extension = template.path("file_extension").asText("");
        String base = fileName.isEmpty() ? "netbox_" + plural(model.verboseName()) : fileName;
        String full = base + (extension.isEmpty() ? "" : "." + extension);
        // a header value: no line breaks or quotes from the saved name
        return "attachment; filename=\"" + full.replaceAll("[\\r\\n\"\\\\]", "_") + "\"";
    }

    /** Django's default verbose_name_plural is the verbose name plus "s"; NetBox's own plurals where they differ. */
    static String plural(String verboseName) {
        if (verboseName.endsWith("chassis")) {
            return verboseName;
        }
        if (verboseName.endsWith("y") && !verboseName.endsWith("ey")) {
            return verboseName.substring(0, verboseName.length() - 1) + "ies";
        }
        if (verboseName.endsWith("s") || verboseName.endsWith("x") || verboseName.endsWith("ch")) {
            return verboseName + "es";
        }
        return verboseName + "s";
    }
}
