package org.sourceoftruth.records.engine.write;

import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.store.RowLoader;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.WriteHook;

/** Runs a model's {@link WriteHook}s around the writing of one row. */
final class WriteHooks {
    private WriteHooks() {}

    /** Before anything is written: the hooks may add field errors. */
    static void beforeWrite(Model model, Row changes, Row existing, Map<String, List<String>> errors) {
        for (WriteHook hook : model.writeHooks()) {
            hook.beforeWrite(changes, existing, errors);
        }
    }

    /**
     * The writes to other objects the hooks ask for after a create (see {@link WriteHook#afterCreate}
     * and {@link WriteHook#afterSave}), given the created rows as the response shows them.
     */
    static List<WriteHook.FollowUp> afterCreate(Db db, Model model, List<Row> created, List<Row> changes) {
        List<WriteHook.FollowUp> out = new java.util.ArrayList<>();
        for (int i = 0; i < created.size(); i++) {
            for (WriteHook hook : model.writeHooks()) {
                out.addAll(hook.afterCreate(db, created.get(i)));
                out.addAll(hook.afterSave(db, created.get(i), changes.get(i), null));
            }
        }
        return out;
    }

    /**
     * {@link WriteHook.OnWrittenRow#afterWrite} for the rows a create inserted, read in one query
     * whatever their number, and only when the model has such hooks; returns the writes to other
     * objects they ask for, in the order of the rows.
     */
    static List<WriteHook.FollowUp> afterInsert(Db db, Model model, List<Long> ids, List<Row> changes) {
        List<WriteHook.FollowUp> out = new java.util.ArrayList<>();
        List<WriteHook.OnWrittenRow> hooks = onWrittenRow(model);
        if (!hooks.isEmpty()) {
            List<Row> written = RowLoader.loadAll(db, model, ids);
            for (int i = 0; i < written.size(); i++) {
                for (WriteHook.OnWrittenRow hook : hooks) {
                    out.addAll(hook.afterWrite(db, written.get(i), changes.get(i), null));
                }
            }
        }
        return out;
    }

    /**
     * The writes to other objects the hooks ask for after an update (see {@link WriteHook#afterSave}),
     * given the row as {@link #afterWrite} read it (null when the model has no hooks).
     */
    static List<WriteHook.FollowUp> afterSave(Db db, Model model, Row written, Row changes, Row existing) {
        List<WriteHook.FollowUp> out = new java.util.ArrayList<>();
        if (written != null) {
            for (WriteHook hook : model.writeHooks()) {
                out.addAll(hook.afterSave(db, written, changes, existing));
            }
        }
        return out;
    }

    /** What the hooks of a model do after its rows were deleted (see {@link WriteHook#afterDelete}). */
    static List<WriteHook.FollowUp> afterDelete(Db db, Model model, List<Row> deleted) {
        List<WriteHook.FollowUp> out = new java.util.ArrayList<>();
        for (WriteHook hook : model.writeHooks()) {
            out.addAll(hook.afterDelete(db, deleted));
        }
        return out;
    }

    /** A row as stored after an update, and the writes to other objects its hooks asked for then. */
    record Stored(Row row, List<WriteHook.FollowUp> followUps) {}

    /**
     * After the row is written: the hooks see it as stored (re-read only when the model has
     * hooks); returns that row for {@link #afterSave} (null when the model has no hooks) with the
     * writes {@link WriteHook.OnWrittenRow#afterWrite} asked for.
     */
    static Stored afterWrite(Db db, Model model, long id, Row changes, Row existing) {
        if (model.writeHooks().isEmpty()) {
            return new Stored(null, List.of());
        }
        Row written = RowLoader.load(db, model, id, false);
        List<WriteHook.FollowUp> out = new java.util.ArrayList<>();
        for (WriteHook.OnWrittenRow hook : onWrittenRow(model)) {
            out.addAll(hook.afterWrite(db, written, changes, existing));
        }
        return new Stored(written, out);
    }

    /** What the hooks of a model ask for before its rows are deleted (see {@link WriteHook#beforeDelete}). */
    static List<WriteHook.FollowUp> beforeDelete(Db db, Model model, List<Row> deleted) {
        List<WriteHook.FollowUp> out = new java.util.ArrayList<>();
        for (WriteHook hook : model.writeHooks()) {
            out.addAll(hook.beforeDelete(db, deleted));
        }
        return out;
    }

    private static List<WriteHook.OnWrittenRow> onWrittenRow(Model model) {
        List<WriteHook.OnWrittenRow> out = new java.util.ArrayList<>();
        for (WriteHook hook : model.writeHooks()) {
            if (hook instanceof WriteHook.OnWrittenRow onWritten) {
                out.add(onWritten);
            }
        }
        return out;
    }
}
