package org.sourceoftruth.records.engine.write;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;

/**
 * Checks rows as they would be stored, after each read without field errors: unique fields,
 * the model's unique-together rules, then its validators, in NetBox's (DRF's) order.
 */
@ApplicationScoped
public class RowValidator {

    /**
     * Checks uniqueness and model rules on one row as an update would store it. Rules over
     * columns the update leaves as they are cannot newly fail (the stored row passed them, and
     * the rows they read guard themselves), so they are not probed: a device PATCH of its
     * description reads no other row.
     */
    public void validateUpdate(
            Db db, Model model, Row existing, Row changes, Row merged, long selfId, Map<String, List<String>> errors) {
        Set<String> changed = new HashSet<>();
        // A value read back in another Java form (an Integer for a Long) counts as changed: the
        // rules it touches are checked, never skipped by mistake.
        changes.forEach((column, value) -> {
            if (!Objects.equals(value, existing.get(column))) {
                changed.add(column);
            }
        });
        List<Long> selfIds = new ArrayList<>();
        selfIds.add(selfId);
        validate(db, model, List.of(merged), selfIds, changed, List.of(errors));
    }

    /**
     * Checks uniqueness and model rules on rows to be created, all against the stored rows as
     * NetBox validates every item of a bulk request before saving any (callers pass only rows
     * that read without errors). Uniqueness costs one query per rule for all rows, and a row that
     * repeats an earlier row of the same request is reported as if that one were stored.
     */
    public void validateNewRows(Db db, Model model, List<Row> rows, List<Map<String, List<String>>> errors) {
        validate(db, model, rows, Collections.nCopies(rows.size(), null), null, errors);
    }

    /**
     * @param selfIds per row, the id of the row being updated (excluded from the checks), or null
     * @param changed the columns an update changes (rules over none of them are skipped); null on create
     */
    private void validate(
            Db db,
            Model model,
            List<Row> rows,
            List<Long> selfIds,
            Set<String> changed,
            List<Map<String, List<String>>> errors) {
        List<UniqueRule> uniqueFields = new ArrayList<>();
        List<String> uniqueFieldNames = new ArrayList<>();
        for (Field f : model.fields()) {
            if (f.isUnique() && f.isColumn() && (changed == null || changed.contains(f.column()))) {
                uniqueFields.add(UniqueRule.of(
                                model.verboseName() + " with this " + f.name.replace('_', ' ') + " already exists.",
                                f.column())
                        .skipIfNull(f.column()));
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
        List<UniqueRule> together = model.uniqueRules().stream()
                .filter(rule -> changed == null || rule.columns().stream().anyMatch(changed::contains))
                .toList();
        UniquenessCheck.checkAll(
                db, model, together, Collections.nCopies(together.size(), "__all__"), valid, validIds, validErrors);
        for (int i = 0; i < rows.size(); i++) {
            Row merged = rows.get(i);
            Map<String, List<String>> rowErrors = errors.get(i);
            if (fieldsFailed[i]) {
                continue;
            }
            model.validators().forEach(v -> v.validate(merged, rowErrors));
            if (rowErrors.isEmpty()) {
                Long selfId = selfIds.get(i);
                model.dbChecks().stream()
                        .filter(check -> check.appliesTo(changed))
                        .forEach(check -> check.rule().validate(db, merged, selfId, rowErrors));
            }
        }
    }
}
