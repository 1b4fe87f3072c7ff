package org.sourceoftruth.records.ui;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A page's query parameters and links to the same page with some of them changed. */
final class QueryString {
    private final Map<String, List<String>> params;

    QueryString(Map<String, List<String>> params) {
        this.params = params;
    }

    /** The query with {@code name} set to {@code value} (removed when null), as "?a=1&b=2". */
    String with(String name, String value) {
        Map<String, List<String>> copy = new LinkedHashMap<>(params);
        copy.remove(name);
        if (value != null) {
            copy.put(name, List.of(value));
        }
        return format(copy);
    }

    /** As {@link #with(String, String)}, and back to the first page. */
    String withFirstPage(String name, String value) {
        return new QueryString(without("offset")).with(name, value);
    }

    Map<String, List<String>> without(String... names) {
        Map<String, List<String>> copy = new LinkedHashMap<>(params);
        for (String n : names) {
            copy.remove(n);
        }
        return copy;
    }

    String first(String name) {
        List<String> v = params.get(name);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    static String format(Map<String, List<String>> params) {
        StringBuilder out = new StringBuilder();
        params.forEach((k, vs) -> vs.forEach(v -> out.append(out.isEmpty() ? "?" : "&")
                .append(encode(k))
                .append('=')
                .append(encode(v))));
        return out.isEmpty() ? "?" : out.toString();
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
