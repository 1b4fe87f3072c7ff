package org.sourceoftruth.records.engine.query;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;
import org.sourceoftruth.records.web.ApiException;

/**
 * {@code ?filter=<slug>} and {@code ?filter_id=<id>} on any list: the parameters of those saved
 * filters (extras/saved-filters) are merged into the request's, as NetBox's BaseFilterSet does
 * before filtering: a parameter both give keeps the request's values and gains the saved ones
 * (repeated values OR), one only the saved filter gives is added.
 *
 * <p>As NetBox, a slug that names no saved filter adds nothing (under STRICT_FILTERING it is a
 * 400 naming {@code filter}, like any parameter that would be ignored); an id that is no
 * integer is a 400 naming {@code filter_id} (NetBox fails with a 500 there).
 */
final class SavedFilterParameters {
    static final String BY_SLUG = "filter";
    static final String BY_ID = "filter_id";

    private SavedFilterParameters() {}

    static Map<String, List<String>> merge(Db db, Map<String, List<String>> query, boolean strict) {
        List<String> slugs = nonEmpty(query.get(BY_SLUG));
        List<String> rawIds = nonEmpty(query.get(BY_ID));
        if (slugs.isEmpty() && rawIds.isEmpty()) {
            return query;
        }
        List<Long> ids = new ArrayList<>();
        for (String raw : rawIds) {
            try {
                ids.add(Long.parseLong(raw.trim()));
            } catch (NumberFormatException e) {
                throw ApiException.field(BY_ID, "Enter a whole number.");
            }
        }
        List<Row> saved = db.query(
                "select slug, parameters from " + SystemTables.EXTRAS_SAVEDFILTER
                        + " where slug = any(?) or id = any(?)" + " order by id",
                new Db.SqlArray("text", slugs),
                new Db.SqlArray("bigint", ids));
        if (strict) {
            Set<String> found = new LinkedHashSet<>();
            saved.forEach(r -> found.add(r.str("slug")));
            for (String slug : slugs) {
                if (!found.contains(slug)) {
                    throw ApiException.field(
                            BY_SLUG, "Select a valid choice. " + slug + " is not one of the available choices.");
                }
            }
        }
        Map<String, List<String>> merged = new LinkedHashMap<>();
        query.forEach((k, v) -> {
            if (!k.equals(BY_SLUG) && !k.equals(BY_ID)) {
                merged.put(k, new ArrayList<>(v));
            }
        });
        for (Row r : saved) {
            if (r.get("parameters") instanceof JsonNode params && params.isObject()) {
                params.fields()
                        .forEachRemaining(e -> merged.computeIfAbsent(e.getKey(), k -> new ArrayList<>())
                                .addAll(values(e.getValue())));
            }
        }
        return merged;
    }

    /** A saved value as query-string values: a list gives one per item, a scalar one. */
    private static List<String> values(JsonNode node) {
        List<String> out = new ArrayList<>();
        if (node.isArray()) {
            node.forEach(item -> out.add(text(item)));
        } else {
            out.add(text(node));
        }
        return out;
    }

    private static String text(JsonNode node) {
        if (node.isNull()) {
            return "null";
        }
        return node.isValueNode() ? node.asText() : node.toString();
    }

    private static List<String> nonEmpty(List<String> values) {
        return values == null
                ? List.of()
                : values.stream().filter(v -> !v.isBlank()).toList();
    }
}
