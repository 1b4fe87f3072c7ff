package org.sourceoftruth.records.ui;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.qute.TemplateData;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.engine.ModelService;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;

/**
 * An object's journal tab: the journal entries ({@code extras.journalentry}) assigned to it,
 * read through the engine under the caller's view permission on them, and a form adding one
 * that is the API's POST of a journal entry (the engine validates it and writes its change
 * record and event). Which models have a journal comes from the registry: those the journal
 * entry's generic relation may point at.
 */
@ApplicationScoped
class JournalView {
    static final String JOURNAL = "extras.journalentry";
    static final long ROWS = 50;
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Inject
    ModelService service;

    @Inject
    ModelRegistry registry;

    @Inject
    Access access;

    @Inject
    RequestContext request;

    @Inject
    DetailView details;

    @TemplateData
    public record Entry(
            long id, String href, String created, String author, String kind, String kindValue, String comments) {}

    /** The journal's model, when this model's objects take journal entries. */
    Optional<Model> journalOf(Model model) {
        for (ModelRegistry.Reference r : registry.referencesTo(model.contentType())) {
            if (r.owner().contentType().equals(JOURNAL) && r.field().kind == Kind.GENERIC_FK) {
                return Optional.of(r.owner());
            }
        }
        return Optional.empty();
    }

    /** Whether the object's page shows the journal tab: the model is journaled, the caller may read journals. */
    boolean shown(Model model) {
        return journalOf(model).map(j -> access.allows(j, Access.Action.VIEW)).orElse(false);
    }

    Response page(Model model, long id, HttpHeaders headers) {
        return render(model, id, headers, 200, "", "", Map.of(), List.of());
    }

    /** The form's post: the API's create of a journal entry on the object, then back to the tab. */
    Response add(Model model, long id, MultivaluedMap<String, String> form, HttpHeaders headers) {
        Model journal = journal(model);
        access.require(journal, Access.Action.ADD);
        details.header(model, id, headers, "journal"); // the object exists and the caller may view it
        String kind = first(form, "kind");
        String comments = first(form, "comments");
        ObjectNode body = NODES.objectNode();
        body.put("assigned_object_type", model.contentType());
        body.put("assigned_object_id", id);
        if (!kind.isEmpty()) {
            body.put("kind", kind);
        }
        body.put("comments", comments);
        try {
            service.create(journal, List.of(body), false);
        } catch (ApiException refused) {
            if (refused.status() != 400) {
                throw refused;
            }
            Map<String, String> messages = FormView.messages(refused.body());
            Map<String, String> atFields = new LinkedHashMap<>();
            List<String> others = new ArrayList<>();
            messages.forEach((k, v) -> {
                if (k.equals("kind") || k.equals("comments")) {
                    atFields.put(k, v);
                } else {
                    others.add(k.equals("non_field_errors") || k.equals("__all__") ? v : k + ": " + v);
                }
            });
            return render(model, id, headers, 400, kind, comments, atFields, others);
        }
        return Pages.redirect(UiPaths.detail(model, id) + "journal/");
    }

    private Response render(
            Model model,
            long id,
            HttpHeaders headers,
            int status,
            String kind,
            String comments,
            Map<String, String> fieldErrors,
            List<String> errors) {
        Model journal = journal(model);
        access.require(journal, Access.Action.VIEW);
        DetailView.Header header = details.header(model, id, headers, "journal");
        Field kindField = journal.field("kind");
        List<FilterForm.Option> kinds = new ArrayList<>();
        String chosen = kind.isEmpty() ? "info" : kind;
        kindField.choices().asMap().forEach((v, l) -> kinds.add(new FilterForm.Option(v, l, v.equals(chosen))));
        return Pages.html(
                status,
                header.page()
                        .data("entries", entries(journal, model, id))
                        .data("canAddJournal", access.holds(journal, "add"))
                        .data("journalKinds", kinds)
                        .data("journalComments", comments)
                        .data("journalErrors", errors)
                        .data("kindError", fieldErrors.get("kind"))
                        .data("commentsError", fieldErrors.get("comments")));
    }

    private Model journal(Model model) {
        return journalOf(model).orElseThrow(ApiException::notFound);
    }

    /** The object's newest entries, with their authors' names where the caller may read users. */
    private List<Entry> entries(Model journal, Model model, long id) {
        Map<String, List<String>> q = new LinkedHashMap<>();
        q.put("assigned_object_type", List.of(model.contentType()));
        q.put("assigned_object_id", List.of(String.valueOf(id)));
        ListQuery.Page page = service.list(
                journal, q, Renderer.Options.full(request.baseUrl()), new ListQuery.PageRequest(ROWS, 0, null));
        Set<String> authorIds = new LinkedHashSet<>();
        page.results().forEach(e -> {
            if (e.path("created_by").canConvertToLong()) {
                authorIds.add(e.path("created_by").asText());
            }
        });
        Map<String, String> names = usernames(authorIds);
        List<Entry> out = new ArrayList<>();
        for (ObjectNode e : page.results()) {
            String author =
                    e.path("created_by").isNull() || e.path("created_by").isMissingNode()
                            ? ""
                            : names.getOrDefault(
                                    e.path("created_by").asText(),
                                    "user #" + e.path("created_by").asText());
            out.add(new Entry(
                    e.path("id").asLong(),
                    Cell.relative(e.get("display_url")),
                    e.path("created").asText(),
                    author,
                    e.path("kind").path("label").asText(e.path("kind").asText()),
                    e.path("kind").path("value").asText(e.path("kind").asText()),
                    e.path("comments").asText("")));
        }
        return out;
    }

    /** id → username of these users, through the engine (nothing when the caller may not view users). */
    private Map<String, String> usernames(Set<String> ids) {
        Map<String, String> out = new HashMap<>();
        Optional<Model> users = registry.byContentType("users.user");
        if (ids.isEmpty() || users.isEmpty() || !access.allows(users.get(), Access.Action.VIEW)) {
            return out;
        }
        ListQuery.Page page = service.list(
                users.get(),
                Map.of("id", List.copyOf(ids)),
                new Renderer.Options(request.baseUrl(), Renderer.Mode.FULL, Set.of("id", "username"), Set.of()),
                new ListQuery.PageRequest(ROWS, 0, null));
        page.results()
                .forEach(u -> out.put(u.path("id").asText(), u.path("username").asText()));
        return out;
    }

    private static String first(MultivaluedMap<String, String> form, String name) {
        List<String> v = form == null ? null : form.get(name);
        return v == null || v.isEmpty() || v.get(0) == null ? "" : v.get(0).strip();
    }
}
