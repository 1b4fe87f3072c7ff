package org.sourceoftruth.records.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.memory.HeapBudget;
import org.sourceoftruth.records.web.JsonResponseBody;

/**
 * A list page as NetBox answers it: {count, next, previous, results}, the links being the
 * request's list URL with its paging parameters moved (DRF's LimitOffsetPagination, or
 * NetBox's cursor mode with {@code start}).
 */
public final class PageEnvelope {
    private PageEnvelope() {}

    /**
     * The page as one tree, every object rendered.
     *
     * @param listUrl the list's absolute URL without query string
     * @param query   the request's query parameters
     */
    public static ObjectNode of(
            String listUrl, Map<String, List<String>> query, ListQuery.PageRequest request, ListQuery.Page page) {
        ObjectNode env = head(listUrl, query, request, page);
        ArrayNode results = env.putArray("results");
        page.results().forEach(results::add);
        return env;
    }

    /**
     * The page as a response body whose objects are written as they are read (the page's rows
     * with large values, and those of a long page, see {@link org.sourceoftruth.records.engine.render.RenderedRows}),
     * under the heap budget.
     */
    public static JsonResponseBody.Content body(
            String listUrl,
            Map<String, List<String>> query,
            ListQuery.PageRequest request,
            ListQuery.Page page,
            HeapBudget budget) {
        return new JsonResponseBody.Content() {
            @Override
            public void write(JsonGenerator json) throws IOException {
                json.writeStartObject();
                for (Map.Entry<String, JsonNode> member :
                        head(listUrl, query, request, page).properties()) {
                    json.writeFieldName(member.getKey());
                    json.writeTree(member.getValue());
                }
                json.writeArrayFieldStart("results");
                page.rows().write(json, budget);
                json.writeEndArray();
                json.writeEndObject();
            }

            @Override
            public JsonNode tree() {
                return of(listUrl, query, request, page);
            }
        };
    }

    /** count, next and previous. */
    private static ObjectNode head(
            String listUrl, Map<String, List<String>> query, ListQuery.PageRequest request, ListQuery.Page page) {
        Long limit = request.limit();
        long offset = request.offset();
        ObjectNode env = Json.MAPPER.createObjectNode();
        if (request.start() != null) {
            env.putNull("count");
            boolean full = limit != null && page.rows().size() == limit;
            env.put(
                    "next",
                    full
                            ? link(
                                    listUrl,
                                    query,
                                    Map.of("start", String.valueOf(page.lastId() + 1), "limit", String.valueOf(limit)),
                                    Set.of("offset"))
                            : null);
            env.putNull("previous");
        } else {
            env.put("count", page.count());
            // offset + limit may pass Long.MAX_VALUE (an offset near it is valid): compared without the sum
            boolean hasNext = limit != null && offset < page.count() - limit;
            env.put(
                    "next",
                    hasNext
                            ? link(
                                    listUrl,
                                    query,
                                    Map.of("limit", String.valueOf(limit), "offset", String.valueOf(offset + limit)),
                                    Set.of())
                            : null);
            if (limit == null || offset <= 0) {
                env.putNull("previous");
            } else if (offset - limit <= 0) {
                env.put("previous", link(listUrl, query, Map.of("limit", String.valueOf(limit)), Set.of("offset")));
            } else {
                env.put(
                        "previous",
                        link(
                                listUrl,
                                query,
                                Map.of("limit", String.valueOf(limit), "offset", String.valueOf(offset - limit)),
                                Set.of()));
            }
        }
        return env;
    }

    /** The list URL with some parameters replaced or removed, re-encoded sorted by name (as DRF). */
    private static String link(
            String listUrl, Map<String, List<String>> q, Map<String, String> replace, Set<String> remove) {
        TreeMap<String, List<String>> params = new TreeMap<>(q);
        remove.forEach(params::remove);
        replace.forEach((k, v) -> params.put(k, List.of(v)));
        StringBuilder sb = new StringBuilder(listUrl);
        char sep = '?';
        for (Map.Entry<String, List<String>> e : params.entrySet()) {
            for (String v : e.getValue()) {
                sb.append(sep).append(enc(e.getKey())).append('=').append(enc(v));
                sep = '&';
            }
        }
        return sb.toString();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
