package org.sourceoftruth.records.engine.write;

import jakarta.enterprise.context.ApplicationScoped;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Checks rows as they would be stored, after each read without field errors: unique fields,
 * the model's unique-together rules, then its validators, in NetBox's (DRF's) order.
 */
@ApplicationScoped
public class RowValidator {

    /** Checks uniqueness and model rules on one row as it would be stored. */
    public void validateRow(Db db, Model model, Row merged, Long selfId, Map<String, List<String>> errors) {
        List<Long> selfIds = new ArrayList<>();
        selfIds.add(selfId);
        validateRows(db, model, List.of(merged), selfIds, List.of(errors));
    }

    /**
     * Checks uniqueness and model rules on rows as they would be stored, all against the stored
     * rows as NetBox validates every item of a bulk request before saving any (callers pass only
     * rows that read without errors). Uniqueness costs one query per rule for all rows, and a row that
     * repeats an earlier row of the same request is reported as if that one were stored.
     *
     * @param selfIds per row, the id of the row being updated (excluded from the checks), or null
     */
    public void validateRows(Db db, Model model, List<Row> rows, List<Long> selfIds,
                             List<Map<String, List<String>>> errors) {
        List<UniqueRule> uniqueFields = new ArrayList<>();
        List<String> uniqueFieldNames = new ArrayList<>();
        for (Field f : model.fields()) {
            if (f.isUnique() && f.isColumn()) {
                uniqueFields.add(UniqueRule.of(model.verboseName() + " with this " + f.name.replace('_', ' ')
                        + " already exists.", f.column()).skipIfNull(f.column()));
                uniqueFieldNames.add(f.name);
            }
        }
        UniquenessCheck.checkAll(db, model, uniqueFields, uniqueFieldNames, rows, selfIds, errors);
        // As DRF: a row whose fields failed (a per-field duplicate) gets no object-level checks,
        // which NetBox runs only on valid fields (unique-together validators, then Model.clean)
        List<Row> valid = new ArrayList<>();
        List<Long> validIds = new ArrayList<>();
        List<Map<String, List<String>>> validErrors = new ArrayList<>();
        boolean[] fieldsFailed = new boolean[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            fieldsFailed[i] = !errors.get(i).isEmpty();
            if (!fieldsFailed[i]) {
                valid.add(rows.get(i));
                validIds.add(selfIds.get(i));
                validErrors.add(errors.get(i));
            }
        }
        List<UniqueRule> together = model.uniqueRules();
        UniquenessCheck.checkAll(db, model, together, Collections.nCopies(together.size(), "__all__"),
                valid, validIds, validErrors);
        for (int i = 0; i < rows.size(); i++) {
            Row merged = rows.get(i);
            Map<String, List<String>> rowErrors = errors.get(i);
            if (fieldsFailed[i]) {
                continue;
            }
            model.validators().forEach(v -> v.validate(merged, rowErrors));
            if (rowErrors.isEmpty()) {
                Long selfId = selfIds.get(i);
                model.dbValidators().forEach(v -> v.validate(db, merged, selfId, rowErrors));
            }
        }
    }
}
