package org.sourceoftruth.records.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;

/**
 * The create and edit forms of a model and their posts. A post is the API's write: the form's
 * fields become the JSON body the REST resource would get and go to the same {@link ModelService}
 * call under the same permission checks, so the engine validates them, writes the change
 * records and the events. A refused write shows the form again with the engine's messages at
 * their fields.
 */
@ApplicationScoped
class FormView {
    @Inject
    ModelService service;

    @Inject
    Access access;

    @Inject
    RequestContext request;

    @Inject
    FormFields fields;

    @Inject
    Pages pages;

    @Location("ui/form")
    Template form;

    Response createForm(Model model, HttpHeaders headers) {
        writable(model);
        access.require(model, Access.Action.ADD);
        return render(model, null, fields.inputs(model, null), List.of(), headers, 200);
    }

    Response create(Model model, MultivaluedMap<String, String> submitted, HttpHeaders headers) {
        writable(model);
        access.require(model, Access.Action.ADD);
        ObjectNode body = fields.payload(model, submitted);
        try {
            List<RenderedObject> created = service.create(model, List.of(body), false);
            return Pages.redirect(
                    UiPaths.detail(model, created.get(0).node().path("id").asLong()));
        } catch (ApiException refused) {
            return refused(model, null, body, refused, headers);
        }
    }

    Response editForm(Model model, long id, HttpHeaders headers) {
        ObjectNode object = editable(model, id);
        return render(model, object, fields.inputs(model, object), List.of(), headers, 200);
    }

    Response update(Model model, long id, MultivaluedMap<String, String> submitted, HttpHeaders headers) {
        ObjectNode object = editable(model, id);
        ObjectNode body = fields.payload(model, submitted);
        try {
            service.update(model, List.of(id), List.of(body), true, false, null);
            return Pages.redirect(UiPaths.detail(model, id));
        } catch (ApiException refused) {
            return refused(model, object, body, refused, headers);
        }
    }

    /** The object to edit: 403 without the change permission on it, as the API's PATCH. */
    private ObjectNode editable(Model model, long id) {
        writable(model);
        access.require(model, Access.Action.CHANGE);
        ObjectNode object =
                service.get(model, id, Renderer.Options.full(request.baseUrl())).node();
        if (!access.permits(model, id, "change")) {
            throw ApiException.forbidden();
        }
        return object;
    }

    /** The form again with what was typed, and each message at its field (the rest above the form). */
    private Response refused(
            Model model, ObjectNode object, ObjectNode body, ApiException refused, HttpHeaders headers) {
        if (refused.status() != 400) {
            throw refused;
        }
        ObjectNode typed = object == null ? body.deepCopy() : object.deepCopy();
        typed.setAll(body);
        Map<String, String> messages = messages(refused.body());
        List<FormInput> inputs = new ArrayList<>();
        for (FormInput input : fields.inputs(model, typed)) {
            String m = messages.remove(input.name());
            inputs.add(m == null ? input : input.withError(m));
        }
        List<String> others = new ArrayList<>();
        messages.forEach((k, v) -> others.add(k.equals("non_field_errors") || k.equals("__all__") ? v : k + ": " + v));
        return render(model, object, inputs, others, headers, 400);
    }

    private Response render(
            Model model,
            ObjectNode object,
            List<FormInput> inputs,
            List<String> errors,
            HttpHeaders headers,
            int status) {
        String title = object == null
                ? "Add " + model.verboseName()
                : "Edit " + object.path("display").asText();
        String action = object == null
                ? UiPaths.list(model) + "add/"
                : UiPaths.detail(model, object.path("id").asLong()) + "edit/";
        String cancel = object == null
                ? UiPaths.list(model)
                : UiPaths.detail(model, object.path("id").asLong());
        return Pages.html(
                status,
                pages.page(form, title, headers)
                        .data("inputs", inputs)
                        .data("errors", errors)
                        .data("action", action)
                        .data("cancel", cancel)
                        .data("listPath", UiPaths.list(model))
                        .data("listLabel", Menu.plural(model)));
    }

    static void writable(Model model) {
        if (model.isReadOnlyApi()) {
            throw ApiException.detail(405, "This kind of object is read-only.");
        }
    }

    /** The first message of each field of a 400's body. */
    static Map<String, String> messages(JsonNode body) {
        Map<String, String> out = new LinkedHashMap<>();
        if (body == null) {
            return out;
        }
        if (body.isArray()) {
            body.forEach(m -> out.merge("non_field_errors", text(m), (a, b) -> a + " " + b));
            return out;
        }
        body.fields().forEachRemaining(e -> out.put(e.getKey(), text(e.getValue())));
        return out;
    }

    private static String text(JsonNode v) {
        if (v.isArray()) {
            StringBuilder out = new StringBuilder();
            v.forEach(m -> out.append(out.isEmpty() ? "" : " ").append(text(m)));
            return out.toString();
        }
        return v.isValueNode() ? v.asText() : v.toString();
    }
}
