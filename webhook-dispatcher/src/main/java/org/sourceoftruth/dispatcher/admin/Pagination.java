package org.sourceoftruth.dispatcher.admin;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** NetBox's limit/offset pagination (netbox/netbox/api/pagination.py) and its next/previous links. */
final class Pagination {

    private Pagination() {}

    /** @return the page size, or null for "everything" (limit=0 with MAX_PAGE_SIZE 0) */
    static Integer limit(String raw, int paginateCount, int maxPageSize) {
        Integer requested = parseNonNegative(raw);
        if (requested == null) {
            return maxPageSize > 0 ? Math.min(paginateCount, maxPageSize) : paginateCount;
        }
        if (requested == 0) {
            return maxPageSize > 0 ? maxPageSize : null;
        }
        return maxPageSize > 0 ? Math.min(requested, maxPageSize) : requested;
    }

    /** NetBox's envelope (count, next, previous, results) around one page of {@code all}. */
    static java.util.Map<String, Object> page(
            List<?> all, jakarta.ws.rs.core.UriInfo uri, int paginateCount, int maxPageSize) {
        Map<String, List<String>> query = uri.getQueryParameters();
        Integer limit = limit(first(query, "limit"), paginateCount, maxPageSize);
        int offset = offset(first(query, "offset"));
        int from = Math.min(offset, all.size());
        int to = limit == null ? all.size() : (int) Math.min((long) from + limit, all.size());
        return envelope(uri.getAbsolutePath(), query, limit, offset, all.size(), all.subList(from, to));
    }

    static java.util.Map<String, Object> envelope(
            URI base, Map<String, List<String>> query, Integer limit, int offset, long count, List<?> results) {
        java.util.Map<String, Object> envelope = new java.util.LinkedHashMap<>();
        envelope.put("count", count);
        envelope.put("next", next(base, query, limit, offset, count));
        envelope.put("previous", previous(base, query, limit, offset));
        envelope.put("results", results);
        return envelope;
    }

    static String first(Map<String, List<String>> query, String name) {
        return query.getOrDefault(name, List.of()).stream().findFirst().orElse(null);
    }

    static int offset(String raw) {
        Integer offset = parseNonNegative(raw);
        return offset == null ? 0 : offset;
    }

    private static Integer parseNonNegative(String raw) {
        if (raw == null) {
            return null;
        }
        try {
            int value = Integer.parseInt(raw.trim());
            return value < 0 ? null : value;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static String next(URI base, Map<String, List<String>> query, Integer limit, int offset, long count) {
        if (limit == null || offset + limit >= count) {
            return null;
        }
        return link(base, query, limit, offset + limit);
    }

    static String previous(URI base, Map<String, List<String>> query, Integer limit, int offset) {
        if (limit == null || offset <= 0) {
            return null;
        }
        return link(base, query, limit, offset - limit <= 0 ? null : offset - limit);
    }

    /** Replaces limit and offset and re-encodes every parameter sorted by name, as NetBox does. */
    private static String link(URI base, Map<String, List<String>> query, int limit, Integer offset) {
        Map<String, List<String>> params = new TreeMap<>(query);
        params.put("limit", List.of(String.valueOf(limit)));
        if (offset == null) {
            params.remove("offset");
        } else {
            params.put("offset", List.of(String.valueOf(offset)));
        }
        StringBuilder url = new StringBuilder(base.toString());
        char separator = '?';
        for (Map.Entry<String, List<String>> param : params.entrySet()) {
            for (String value : param.getValue()) {
                url.append(separator).append(encode(param.getKey())).append('=').append(encode(value));
                separator = '&';
            }
        }
        return url.toString();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
