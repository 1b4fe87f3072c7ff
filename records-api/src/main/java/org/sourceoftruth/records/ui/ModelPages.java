package org.sourceoftruth.records.ui;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiException;

/**
 * The pages of every model, at the paths its {@code display_url} names: the list
 * {@code /<app>/<model>/}, an object {@code /<app>/<model>/<id>/} with its change log and journal, the
 * forms ({@code add/}, {@code <id>/edit/}, {@code <id>/delete/}, bulk {@code delete/}), and
 * the fragments htmx loads (child tables, a relation's options).
 */
@Path("/")
@Produces(MediaType.TEXT_HTML)
public class ModelPages {
    /**
     * A model's list path. The applications' pattern is on each method, not on the class: a
     * class path with a pattern matched the class but none of its methods' sub-paths.
     */
    static final String MODEL_PATH = "{app: " + UiPaths.APPS + "}/{model: " + UiPaths.MODEL + "}/";

    @Inject
    ModelRegistry registry;

    @Inject
    Pages pages;

    @Inject
    ListView lists;

    @Inject
    Export exports;

    @Inject
    ChildTables children;

    @Inject
    DetailView details;

    @Inject
    FormView forms;

    @Inject
    DeleteView deletes;

    @Inject
    JournalView journals;

    @Inject
    RelationOptionsFragment options;

    @Context
    HttpHeaders headers;

    @Context
    UriInfo uri;

    @GET
    @Path(MODEL_PATH)
    @Operation(hidden = true)
    public Response list(@PathParam("app") String app, @PathParam("model") String path) {
        return pages.guard(headers, () -> {
            Model model = model(app, path);
            Map<String, List<String>> query = query();
            List<String> export = query.get("export");
            if (export != null && !export.isEmpty()) {
                return exports.export(model, export.get(0), query);
            }
            return lists.page(model, query, headers);
        });
    }

    @GET
    @Path(MODEL_PATH + "table/")
    @Operation(hidden = true)
    public Response childTable(@PathParam("app") String app, @PathParam("model") String path) {
        return pages.guard(headers, () -> children.table(model(app, path), query()));
    }

    @GET
    @Path(MODEL_PATH + "options/")
    @Operation(hidden = true)
    public Response relationOptions(@PathParam("app") String app, @PathParam("model") String path) {
        return pages.guard(headers, () -> options.render(model(app, path), query()));
    }

    @GET
    @Path(MODEL_PATH + "add/")
    @Operation(hidden = true)
    public Response addForm(@PathParam("app") String app, @PathParam("model") String path) {
        return pages.guard(headers, () -> forms.createForm(model(app, path), headers));
    }

    @POST
    @Path(MODEL_PATH + "add/")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Response add(
            @PathParam("app") String app, @PathParam("model") String path, MultivaluedMap<String, String> form) {
        return pages.guard(headers, () -> forms.create(model(app, path), form, headers));
    }

    /** The list's selected rows: the confirmation, then (with {@code confirm}) the delete. */
    @POST
    @Path(MODEL_PATH + "delete/")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Response bulkDelete(
            @PathParam("app") String app, @PathParam("model") String path, MultivaluedMap<String, String> form) {
        return pages.guard(headers, () -> {
            Model model = model(app, path);
            List<Long> ids = DeleteView.ids(form.get("pk"));
            if (form.containsKey("confirm")) {
                return deletes.delete(model, ids, true, UiPaths.list(model));
            }
            return deletes.confirm(model, ids, UiPaths.list(model) + "delete/", UiPaths.list(model), headers);
        });
    }

    @GET
    @Path(MODEL_PATH + "{id: [0-9]+}/")
    @Operation(hidden = true)
    public Response detail(@PathParam("app") String app, @PathParam("model") String path, @PathParam("id") long id) {
        return pages.guard(headers, () -> details.page(model(app, path), id, headers));
    }

    @GET
    @Path(MODEL_PATH + "{id: [0-9]+}/changelog/")
    @Operation(hidden = true)
    public Response changeLog(@PathParam("app") String app, @PathParam("model") String path, @PathParam("id") long id) {
        return pages.guard(headers, () -> details.changeLog(model(app, path), id, headers));
    }

    @GET
    @Path(MODEL_PATH + "{id: [0-9]+}/journal/")
    @Operation(hidden = true)
    public Response journal(@PathParam("app") String app, @PathParam("model") String path, @PathParam("id") long id) {
        return pages.guard(headers, () -> journals.page(model(app, path), id, headers));
    }

    /** A journal entry added from the object's journal tab. */
    @POST
    @Path(MODEL_PATH + "{id: [0-9]+}/journal/")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Response addJournalEntry(
            @PathParam("app") String app,
            @PathParam("model") String path,
            @PathParam("id") long id,
            MultivaluedMap<String, String> form) {
        return pages.guard(headers, () -> journals.add(model(app, path), id, form, headers));
    }

    @GET
    @Path(MODEL_PATH + "{id: [0-9]+}/edit/")
    @Operation(hidden = true)
    public Response editForm(@PathParam("app") String app, @PathParam("model") String path, @PathParam("id") long id) {
        return pages.guard(headers, () -> forms.editForm(model(app, path), id, headers));
    }

    @POST
    @Path(MODEL_PATH + "{id: [0-9]+}/edit/")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Response edit(
            @PathParam("app") String app,
            @PathParam("model") String path,
            @PathParam("id") long id,
            MultivaluedMap<String, String> form) {
        return pages.guard(headers, () -> forms.update(model(app, path), id, form, headers));
    }

    @GET
    @Path(MODEL_PATH + "{id: [0-9]+}/delete/")
    @Operation(hidden = true)
    public Response deleteForm(
            @PathParam("app") String app, @PathParam("model") String path, @PathParam("id") long id) {
        return pages.guard(headers, () -> {
            Model model = model(app, path);
            return deletes.confirm(
                    model, List.of(id), UiPaths.detail(model, id) + "delete/", UiPaths.detail(model, id), headers);
        });
    }

    @POST
    @Path(MODEL_PATH + "{id: [0-9]+}/delete/")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Response delete(@PathParam("app") String app, @PathParam("model") String path, @PathParam("id") long id) {
        return pages.guard(headers, () -> {
            Model model = model(app, path);
            return deletes.delete(model, List.of(id), false, UiPaths.list(model));
        });
    }

    /** OPTIONS on the pages' paths (the class's own, "/", is HomePages'; see {@link AnswersOptions}). */
    @OPTIONS
    @Path(MODEL_PATH)
    @Operation(hidden = true)
    public Response optionsList() {
        return AnswersOptions.ok();
    }

    @OPTIONS
    @Path(MODEL_PATH + "{page: table|options|add|delete}/")
    @Operation(hidden = true)
    public Response optionsListPages() {
        return AnswersOptions.ok();
    }

    @OPTIONS
    @Path(MODEL_PATH + "{id: [0-9]+}/")
    @Operation(hidden = true)
    public Response optionsObject() {
        return AnswersOptions.ok();
    }

    @OPTIONS
    @Path(MODEL_PATH + "{id: [0-9]+}/{page: changelog|journal|edit|delete}/")
    @Operation(hidden = true)
    public Response optionsObjectPages() {
        return AnswersOptions.ok();
    }

    private Model model(String app, String path) {
        return registry.byPath(app, path).orElseThrow(ApiException::notFound);
    }

    private Map<String, List<String>> query() {
        Map<String, List<String>> q = new LinkedHashMap<>();
        uri.getQueryParameters().forEach(q::put);
        return q;
    }
}
