package org.sourceoftruth.records.engine.write;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.sourceoftruth.records.db.Db;
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
     * that read without errors). Uniqueness costs one query for all rules and rows, and a row
     * that repeats an earlier row of the same request is reported as if that one were stored.
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
        List<UniqueRule> rules = model.uniqueRules().stream()
                .filter(rule -> changed == null || rule.readColumns().stream().anyMatch(changed::contains))
                .toList();
        List<Set<Integer>> stored = UniquenessCheck.storedDuplicates(db, model, rules, rows, selfIds);
        for (int r = 0; r < rules.size(); r++) {
            if (rules.get(r).isFieldRule()) {
                Set<Integer> duplicates = new TreeSet<>(stored.get(r));
                duplicates.addAll(UniquenessCheck.requestDuplicates(rules.get(r), rows, selfIds, i -> true));
                addErrors(rules.get(r), duplicates, rows, errors);
            }
        }
        // As DRF: a row whose fields failed (a per-field duplicate) gets no object-level checks,
        // which NetBox runs only on valid fields (unique-together validators, then Model.clean)
        boolean[] fieldsFailed = new boolean[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            fieldsFailed[i] = !errors.get(i).isEmpty();
        }
        for (int r = 0; r < rules.size(); r++) {
            if (!rules.get(r).isFieldRule()) {
                Set<Integer> duplicates = new TreeSet<>(stored.get(r));
                duplicates.addAll(
                        UniquenessCheck.requestDuplicates(rules.get(r), rows, selfIds, i -> !fieldsFailed[i]));
                duplicates.removeIf(i -> fieldsFailed[i]);
                addErrors(rules.get(r), duplicates, rows, errors);
            }
        }
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

    private static void addErrors(
            UniqueRule rule, Set<Integer> duplicates, List<Row> rows, List<Map<String, List<String>>> errors) {
        for (int i : duplicates) {
            PayloadReader.add(errors.get(i), rule.errorKey(), rule.messageFor(rows.get(i)));
        }
    }
}
