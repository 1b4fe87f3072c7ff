package org.sourceoftruth.records.browsable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sourceoftruth.model.Json;

/**
 * Pretty-printed JSON as HTML: escaped, with every string value that is a URL of this API made
 * a link, so a person can click through the API as DRF's browsable API allows.
 */
final class JsonHtml {
    private static final Pattern URL_STRING = Pattern.compile("&quot;((?:https?://[^&\\s]+)?/api/[^&\\s]*)&quot;");

    private JsonHtml() {}

    static String render(JsonNode node) {
        String pretty;
        try {
            pretty = Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (JsonProcessingException e) {
            pretty = String.valueOf(node);
        }
        String escaped = escape(pretty);
        Matcher m = URL_STRING.matcher(escaped);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String url = m.group(1);
            m.appendReplacement(sb, Matcher.quoteReplacement("&quot;<a href=\"" + url + "\">" + url + "</a>&quot;"));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
