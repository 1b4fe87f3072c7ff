package org.sourceoftruth.records.engine.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;
import org.sourceoftruth.records.db.ColumnTypes;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.db.SqlText;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;

/**
 * Uniqueness rules checked over many rows against the stored rows and each other, set-wise:
 * rows are matched against the table through their values, one probe per rule and
 * pattern of NULL columns (NULLs compare equal here, written as "col is null" rather than IS NOT
 * DISTINCT FROM, which no index can answer), all probes of all rules in one statement: one
 * snapshot, so that a row another request commits meanwhile is seen by every rule or by none
 * (the answer to a duplicate does not depend on when the other row came).
 */
final class UniquenessCheck {
    private UniquenessCheck() {}

    /** Per rule, the indexes of the rows that have a stored duplicate (a row other than themselves). */
    static List<Set<Integer>> storedDuplicates(
            Db db, Model model, List<UniqueRule> rules, List<Row> rows, List<Long> selfIds) {
        List<Set<Integer>> found = new ArrayList<>();
        List<Probe> probes = new ArrayList<>();
        for (int r = 0; r < rules.size(); r++) {
            found.add(new LinkedHashSet<>());
            probes.addAll(probes(db, model, r, rules.get(r), rows, selfIds));
        }
        if (!probes.isEmpty()) {
            List<Object> params = new ArrayList<>();
            probes.forEach(p -> params.addAll(p.params()));
            String sql =
                    String.join(" union all ", probes.stream().map(Probe::sql).toList());
            List<Row> duplicates = probes.stream().anyMatch(Probe::arrays)
                    ? db.queryPlannedEachTime(sql, params)
                    : db.query(sql, params);
            duplicates.forEach(
                    row -> found.get(((Number) row.get("r")).intValue()).add(((Number) row.get("i")).intValue()));
        }
        return found;
    }

    /**
     * The indexes of the rows (of those {@code considered}) that repeat an earlier considered row
     * of the request on the rule, as NetBox reports an item of a bulk request that repeats an
     * earlier one (each item is validated as if those before it were saved).
     */
    static Set<Integer> requestDuplicates(
            UniqueRule rule, List<Row> rows, List<Long> selfIds, IntPredicate considered) {
        Set<Integer> duplicates = new LinkedHashSet<>();
        Map<List<Object>, Integer> seen = new HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            if (!considered.test(i) || !rule.appliesTo(rows.get(i))) {
                continue;
            }
            Integer earlier = seen.putIfAbsent(key(rule, rows.get(i)), i);
            if (earlier != null && (selfIds.get(i) == null || !selfIds.get(i).equals(selfIds.get(earlier)))) {
                duplicates.add(i);
            }
        }
        return duplicates;
    }

    private static List<Object> key(UniqueRule rule, Row row) {
        List<Object> key = new ArrayList<>();
        for (String c : rule.columns()) {
            Object v = row.get(c);
            key.add(
                    v == null
                            ? null
                            : rule.caseInsensitive().contains(c)
                                    ? v.toString().toLowerCase(Locale.ROOT)
                                    : v.toString());
        }
        return key;
    }

    /** A statement selecting (r, i): the rows (indexes i) of which rule r finds a stored duplicate. */
    private record Probe(String sql, List<Object> params, boolean arrays) {}

    /** The probes of one rule: one per pattern of NULL columns among the rows it applies to. */
    private static List<Probe> probes(
            Db db, Model model, int ruleIndex, UniqueRule rule, List<Row> rows, List<Long> selfIds) {
        Map<List<Boolean>, List<Integer>> byNullPattern = new LinkedHashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            if (!rule.appliesTo(row)) {
                continue;
            }
            List<Boolean> nulls = new ArrayList<>();
            for (String c : rule.columns()) {
                nulls.add(row.get(c) == null);
            }
            byNullPattern.computeIfAbsent(nulls, k -> new ArrayList<>()).add(i);
        }
        List<Probe> probes = new ArrayList<>();
        byNullPattern.forEach(
                (nulls, indexes) -> probes.add(probe(db, model, ruleIndex, rule, nulls, indexes, rows, selfIds)));
        return probes;
    }

    /**
     * The probe for the rows {@code part} (of one null pattern) against stored rows other than
     * themselves. One row comes as a VALUES row of parameters: its statement is planned once per
     * session for its exact row count, as a single create or update needs. Several come as one
     * array per column, so the text depends on the rule and the null pattern only, whatever the
     * number of rows (a VALUES list of 1,000 rows was 10 ms of planning at every bulk request);
     * such a probe is planned at every execution, for its arrays' length (see
     * {@link Db#queryPlannedEachTime}). Values go as text, cast to the column's type.
     */
    private static Probe probe(
            Db db,
            Model model,
            int ruleIndex,
            UniqueRule rule,
            List<Boolean> nulls,
            List<Integer> part,
            List<Row> rows,
            List<Long> selfIds) {
        boolean arrays = part.size() > 1;
        List<String> valueColumns = new ArrayList<>(List.of("i", "self"));
        List<String> sources =
                new ArrayList<>(List.of(arrays ? "?::int[]" : "?::int", arrays ? "?::bigint[]" : "?::bigint"));
        List<Object> params = new ArrayList<>();
        params.add(arrays ? new Db.SqlArray("integer", part) : part.get(0));
        params.add(
                arrays
                        ? new Db.SqlArray(
                                "bigint", part.stream().map(selfIds::get).toList())
                        : selfIds.get(part.get(0)));
        StringBuilder match = new StringBuilder();
        for (int c = 0; c < rule.columns().size(); c++) {
            String column = rule.columns().get(c);
            if (nulls.get(c)) {
                match.append(" and t.").append(Db.q(column)).append(" is null");
                continue;
            }
            String type = ColumnTypes.of(db, model.table(), column);
            sources.add(arrays ? "?::text[]::" + type + "[]" : "?::text::" + type);
            List<String> values = part.stream()
                    .map(index -> SqlText.of(rows.get(index).get(column)))
                    .toList();
            params.add(arrays ? new Db.SqlArray("text", values) : values.get(0));
            valueColumns.add("c" + c);
            if (rule.caseInsensitive().contains(column)) {
                match.append(" and lower(t.")
                        .append(Db.q(column))
                        .append(") = lower(v.c")
                        .append(c)
                        .append(")");
            } else {
                match.append(" and t.").append(Db.q(column)).append(" = v.c").append(c);
            }
        }
        // stored rows the rule applies to (the row's own values already match the rest)
        rule.onlyIfNull()
                .forEach(column -> match.append(" and t.").append(Db.q(column)).append(" is null"));
        String stored = "from " + model.table() + " t where (v.self is null or t.id <> v.self)" + match;
        // Several rows: one index probe per row (a lateral subquery with LIMIT 1). As an EXISTS,
        // PostgreSQL's cost model chose a hash join over a scan of the whole table for 1,000 rows:
        // 38 ms against 1.5 ms on 144,000 interfaces.
        String sql = "select " + ruleIndex + " as r, v.i from "
                + (arrays
                        ? "unnest(" + String.join(", ", sources) + ")"
                        : "(values (" + String.join(", ", sources) + "))")
                + " as v(" + String.join(", ", valueColumns) + ")"
                + (arrays
                        ? " cross join lateral (select " + stored + " limit 1) x"
                        : " where exists (select 1 " + stored + ")");
        return new Probe(sql, params, arrays);
    }
}
