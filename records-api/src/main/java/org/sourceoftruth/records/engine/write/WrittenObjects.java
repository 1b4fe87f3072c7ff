package org.sourceoftruth.records.engine.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.sourceoftruth.records.changelog.ChangeAction;
import org.sourceoftruth.records.changelog.ChangeRecord;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.render.AbsoluteUrls;
import org.sourceoftruth.records.engine.render.RenderedObject;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.engine.store.RowLoader;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.web.ETags;
import org.sourceoftruth.records.web.RequestContext;

/**
 * Objects just written, as the response and the change log see them: re-read (one query),
 * rendered, and one change record each, whether the request named them or the engine wrote
 * them on its behalf (components made from templates).
 */
@ApplicationScoped
class WrittenObjects {
    @Inject
    Renderer renderer;

    @Inject
    ChangeRecordFactory entries;

    @Inject
    RequestContext request;

    /**
     * Written objects and their change records (not recorded yet). The records share the rendered
     * trees (see {@link ChangeRecordFactory#redacted}), so the response forms, whose URLs are
     * made absolute in place, are to be taken only once the records are written.
     */
    final class Written {
        private final List<Row> rows;
        private final List<ObjectNode> rendered;
        private final List<ChangeRecord> records;

        private Written(List<Row> rows, List<ObjectNode> rendered, List<ChangeRecord> records) {
            this.rows = rows;
            this.rendered = rendered;
            this.records = records;
        }

        List<ChangeRecord> records() {
            return records;
        }

        /** The rows as read back after the write, in the order of the ids. */
        List<Row> rows() {
            return rows;
        }

        /** The response forms; call after the change records are written. */
        List<RenderedObject> responses() {
            return WrittenObjects.this.responses(rows, rendered);
        }
    }

    /**
     * Secret fields appear in the response to a create (shown once), never in the change record.
     *
     * @param pres   snapshots before the change (nulls on create)
     * @param bodies the request items, for their {@code changelog_message} (null: none)
     */
    Written of(Db db, Model model, ChangeAction action, List<JsonNode> pres, List<Long> ids, List<JsonNode> bodies) {
        List<Row> rows = RowLoader.loadAll(db, model, ids);
        Renderer.Options opts = Renderer.Options.full("");
        List<ObjectNode> rendered =
                renderer.render(db, model, rows, action == ChangeAction.CREATE ? opts.revealingSecrets() : opts);
        List<JsonNode> posts = ChangeSnapshots.of(db, model, rows, rendered);
        List<ChangeRecord> records = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            JsonNode msg = bodies == null ? null : bodies.get(i).get("changelog_message");
            records.add(entries.entry(
                    model,
                    action,
                    ids.get(i),
                    model.display(row),
                    pres.get(i),
                    posts.get(i),
                    ChangeRecordFactory.redacted(model, rendered.get(i)),
                    msg == null ? "" : msg.asText()));
        }
        return new Written(rows, rendered, records);
    }

    /** The response forms of objects written earlier in this transaction, read again (a follow-up changed them). */
    List<RenderedObject> reread(Db db, Model model, List<Long> ids) {
        List<Row> rows = RowLoader.loadAll(db, model, ids);
        return responses(
                rows, renderer.render(db, model, rows, Renderer.Options.full("").revealingSecrets()));
    }

    private List<RenderedObject> responses(List<Row> rows, List<ObjectNode> rendered) {
        List<RenderedObject> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            ObjectNode response = rendered.get(i);
            AbsoluteUrls.absolutize(response, request.baseUrl());
            out.add(new RenderedObject(response, ETags.of(rows.get(i))));
        }
        return out;
    }
}
