package org.sourceoftruth.records.engine.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * DISTINCT FROM, which no index can answer), all probes in one statement.
 */
final class UniquenessCheck {
    private UniquenessCheck() {}

    /**
     * Several rules at once, in one statement (a site's name and slug were two round trips). Each
     * rule's messages are added in rule order, a rule's duplicates within the request before its
     * duplicates of stored rows, as when the rules were checked one after another.
     */
    static void checkAll(
            Db db,
            Model model,
            List<UniqueRule> rules,
            List<String> errorKeys,
            List<Row> rows,
            List<Long> selfIds,
            List<Map<String, List<String>>> errors) {
        List<List<Integer>> found = new ArrayList<>();
        List<Probe> probes = new ArrayList<>();
        for (int r = 0; r < rules.size(); r++) {
            found.add(new ArrayList<>());
            probes.addAll(probes(db, model, r, rules.get(r), rows, selfIds, found.get(r)));
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
        for (int r = 0; r < rules.size(); r++) {
            for (int index : found.get(r)) {
                uniqueError(rules.get(r), errorKeys.get(r), rows.get(index), errors.get(index));
            }
        }
    }

    /** A statement selecting (r, i): the rows (indexes i) of which rule r finds a stored duplicate. */
    private record Probe(String sql, List<Object> params, boolean arrays) {}

    /**
     * The probes of one rule; rows repeating an earlier row of the request are added to
     * {@code duplicates} directly (and not probed).
     */
    private static List<Probe> probes(
            Db db,
            Model model,
            int ruleIndex,
            UniqueRule rule,
            List<Row> rows,
            List<Long> selfIds,
            List<Integer> duplicates) {
        Map<List<Boolean>, List<Integer>> byNullPattern = new LinkedHashMap<>();
        Map<List<Object>, Integer> seen = new HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            if (skips(rule, row)) {
                continue;
            }
            List<Boolean> nulls = new ArrayList<>();
            List<Object> key = new ArrayList<>();
            for (String c : rule.columns()) {
                Object v = row.get(c);
                nulls.add(v == null);
                key.add(
                        v == null
                                ? null
                                : rule.caseInsensitive().contains(c)
                                        ? v.toString().toLowerCase(Locale.ROOT)
                                        : v.toString());
            }
            Integer earlier = seen.putIfAbsent(key, i);
            if (earlier != null && (selfIds.get(i) == null || !selfIds.get(i).equals(selfIds.get(earlier)))) {
                duplicates.add(i);
                continue;
            }
            byNullPattern.computeIfAbsent(nulls, k -> new ArrayList<>()).add(i);
        }
        List<Probe> probes = new ArrayList<>();
        byNullPattern.forEach(
                (nulls, indexes) -> probes.add(probe(db, model, ruleIndex, rule, nulls, indexes, rows, selfIds)));
        return probes;
    }

    private static boolean skips(UniqueRule rule, Row row) {
        return rule.skipIfNull().stream().anyMatch(c -> row.get(c) == null)
                || rule.skipIfBlank().stream().anyMatch(c -> row.get(c) == null || "".equals(row.get(c)));
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

    private static void uniqueError(UniqueRule rule, String errorKey, Row row, Map<String, List<String>> rowErrors) {
        boolean topLevel = row.get(rule.columns().get(0)) == null && rule.topLevelMessage() != null;
        PayloadReader.add(rowErrors, errorKey, topLevel ? rule.topLevelMessage() : rule.message());
    }
}
