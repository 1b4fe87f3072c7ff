package org.sourceoftruth.records.engine.write;

import org.sourceoftruth.records.engine.write.PayloadReader;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One uniqueness rule checked over many rows against the stored rows and each other, set-wise:
 * rows are matched against the table through a VALUES list, one query per pattern of NULL
 * columns (NULLs compare equal here, written as "col is null" rather than IS NOT DISTINCT FROM,
 * which no index can answer).
 */
final class UniquenessCheck {
    /** Bind parameters per statement, kept below the protocol's limit of 65535. */
    private static final int MAX_PARAMS = 30_000;

    private UniquenessCheck() {
    }

    /**
     * Several rules at once: the stored rows are probed for all of them in as few statements as the
     * bind-parameter limit allows (one for a single row: a site's name and slug were two round
     * trips). Each rule's messages are added in rule order, a rule's duplicates within the request
     * before its duplicates of stored rows, as when the rules were checked one after another.
     */
    static void checkAll(Db db, Model model, List<UniqueRule> rules, List<String> errorKeys, List<Row> rows,
                         List<Long> selfIds, List<Map<String, List<String>>> errors) {
        List<List<Integer>> found = new ArrayList<>();
        List<Probe> probes = new ArrayList<>();
        for (int r = 0; r < rules.size(); r++) {
            found.add(new ArrayList<>());
            probes.addAll(probes(model, r, rules.get(r), rows, selfIds, found.get(r)));
        }
        int from = 0;
        while (from < probes.size()) {
            StringBuilder sql = new StringBuilder();
            List<Object> params = new ArrayList<>();
            int to = from;
            while (to < probes.size() && (to == from || params.size() + probes.get(to).params().size() <= MAX_PARAMS)) {
                sql.append(to == from ? "" : " union all ").append(probes.get(to).sql());
                params.addAll(probes.get(to).params());
                to++;
            }
            db.query(sql.toString(), params).forEach(row -> found.get(((Number) row.get("r")).intValue())
                    .add(((Number) row.get("i")).intValue()));
            from = to;
        }
        for (int r = 0; r < rules.size(); r++) {
            for (int index : found.get(r)) {
                uniqueError(rules.get(r), errorKeys.get(r), rows.get(index), errors.get(index));
            }
        }
    }

    /** A statement selecting (r, i): the rows (indexes i) of which rule r finds a stored duplicate. */
    private record Probe(String sql, List<Object> params) {
    }

    /**
     * The probes of one rule; rows repeating an earlier row of the request are added to
     * {@code duplicates} directly (and not probed).
     */
    private static List<Probe> probes(Model model, int ruleIndex, UniqueRule rule, List<Row> rows, List<Long> selfIds,
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
                key.add(v == null ? null : rule.caseInsensitive().contains(c)
                        ? v.toString().toLowerCase(Locale.ROOT) : v.toString());
            }
            Integer earlier = seen.putIfAbsent(key, i);
            if (earlier != null && (selfIds.get(i) == null || !selfIds.get(i).equals(selfIds.get(earlier)))) {
                duplicates.add(i);
                continue;
            }
            byNullPattern.computeIfAbsent(nulls, k -> new ArrayList<>()).add(i);
        }
        List<Probe> probes = new ArrayList<>();
        byNullPattern.forEach((nulls, indexes) -> {
            int perRow = 2 + (int) nulls.stream().filter(n -> !n).count();
            int chunk = Math.max(1, MAX_PARAMS / perRow);
            for (int from = 0; from < indexes.size(); from += chunk) {
                List<Integer> part = indexes.subList(from, Math.min(indexes.size(), from + chunk));
                probes.add(probe(model, ruleIndex, rule, nulls, part, rows, selfIds));
            }
        });
        return probes;
    }

    private static boolean skips(UniqueRule rule, Row row) {
        return rule.skipIfNull().stream().anyMatch(c -> row.get(c) == null)
                || rule.skipIfBlank().stream().anyMatch(c -> row.get(c) == null || "".equals(row.get(c)));
    }

    /** The probe for the rows {@code part} (of one null pattern) against stored rows other than themselves. */
    private static Probe probe(Model model, int ruleIndex, UniqueRule rule, List<Boolean> nulls, List<Integer> part,
                               List<Row> rows, List<Long> selfIds) {
        List<String> valueColumns = new ArrayList<>(List.of("i", "self"));
        StringBuilder match = new StringBuilder();
        for (int c = 0; c < rule.columns().size(); c++) {
            String column = rule.columns().get(c);
            if (nulls.get(c)) {
                match.append(" and t.").append(Db.q(column)).append(" is null");
            } else if (rule.caseInsensitive().contains(column)) {
                match.append(" and lower(t.").append(Db.q(column)).append(") = lower(v.c").append(c).append(")");
                valueColumns.add("c" + c);
            } else {
                match.append(" and t.").append(Db.q(column)).append(" = v.c").append(c);
                valueColumns.add("c" + c);
            }
        }
        StringBuilder values = new StringBuilder();
        List<Object> params = new ArrayList<>();
        for (int index : part) {
            values.append(values.isEmpty() ? "(?::int, ?::bigint" : ", (?::int, ?::bigint");
            params.add(index);
            params.add(selfIds.get(index));
            for (int c = 0; c < rule.columns().size(); c++) {
                if (!nulls.get(c)) {
                    values.append(", ?");
                    params.add(rows.get(index).get(rule.columns().get(c)));
                }
            }
            values.append(')');
        }
        String sql = "select " + ruleIndex + " as r, v.i from (values " + values + ") as v(" + String.join(", ", valueColumns) + ")"
                + " where exists (select 1 from " + model.table() + " t where (v.self is null or t.id <> v.self)"
                + match + ")";
        return new Probe(sql, params);
    }

    private static void uniqueError(UniqueRule rule, String errorKey, Row row, Map<String, List<String>> rowErrors) {
        boolean topLevel = row.get(rule.columns().get(0)) == null && rule.topLevelMessage() != null;
        PayloadReader.add(rowErrors, errorKey, topLevel ? rule.topLevelMessage() : rule.message());
    }
}
