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

    /** Adds the rule's message under {@code errorKey} to the errors of every row it finds a duplicate for. */
    static void check(Db db, Model model, UniqueRule rule, String errorKey, List<Row> rows,
                      List<Long> selfIds, List<Map<String, List<String>>> errors) {
        Map<List<Boolean>, List<Integer>> byNullPattern = new LinkedHashMap<>();
        Map<List<Object>, Integer> seen = new HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            Map<String, List<String>> rowErrors = errors.get(i);
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
                uniqueError(rule, errorKey, row, rowErrors);
                continue;
            }
            byNullPattern.computeIfAbsent(nulls, k -> new ArrayList<>()).add(i);
        }
        byNullPattern.forEach((nulls, indexes) -> {
            int perRow = 2 + (int) nulls.stream().filter(n -> !n).count();
            int chunk = Math.max(1, MAX_PARAMS / perRow);
            for (int from = 0; from < indexes.size(); from += chunk) {
                List<Integer> part = indexes.subList(from, Math.min(indexes.size(), from + chunk));
                for (int conflicting : conflicts(db, model, rule, nulls, part, rows, selfIds)) {
                    uniqueError(rule, errorKey, rows.get(conflicting), errors.get(conflicting));
                }
            }
        });
    }

    private static boolean skips(UniqueRule rule, Row row) {
        return rule.skipIfNull().stream().anyMatch(c -> row.get(c) == null)
                || rule.skipIfBlank().stream().anyMatch(c -> row.get(c) == null || "".equals(row.get(c)));
    }

    /** Indexes (of {@code part}) of the rows that a stored row other than themselves already matches. */
    private static List<Integer> conflicts(Db db, Model model, UniqueRule rule, List<Boolean> nulls, List<Integer> part,
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
        String sql = "select v.i from (values " + values + ") as v(" + String.join(", ", valueColumns) + ")"
                + " where exists (select 1 from " + model.table() + " t where (v.self is null or t.id <> v.self)"
                + match + ")";
        List<Integer> found = new ArrayList<>();
        db.query(sql, params).forEach(r -> found.add(((Number) r.get("i")).intValue()));
        return found;
    }

    private static void uniqueError(UniqueRule rule, String errorKey, Row row, Map<String, List<String>> rowErrors) {
        boolean topLevel = row.get(rule.columns().get(0)) == null && rule.topLevelMessage() != null;
        PayloadReader.add(rowErrors, errorKey, topLevel ? rule.topLevelMessage() : rule.message());
    }
}
