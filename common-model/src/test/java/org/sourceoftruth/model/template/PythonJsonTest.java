package org.sourceoftruth.model.template;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PythonJsonTest {

    @Test
    void writesLikePythonJsonDumps() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("b", List.of(1L, 2.5, true));
        value.put("a", null);
        value.put("text", "Zürich \"quoted\" \\u00FC\n😀");
        value.put("empty", Map.of());
        value.put("list", Arrays.asList());
        assertEquals(
                "{\"b\": [1, 2.5, true], \"a\": null, "
                        + "\"text\": \"Z\\u00fcrich \\\"quoted\\\" \\\\u00FC\\n\\ud83d\\ude00\", \"empty\": {}, \"list\": []}",
                PythonJson.dumps(value));
    }

    @Test
    void tojsonSortsKeysEscapesHtmlAndIndents() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("z", "<a href='x'>&</a>");
        value.put("a", List.of(Map.of("k", 1L)));
        assertEquals(
                "{\"a\": [{\"k\": 1}], \"z\": \"\\u003ca href=\\u0027x\\u0027\\u003e\\u0026\\u003c/a\\u003e\"}",
                PythonJson.dumpsForTemplate(value, null));
        assertEquals(
                "{\n  \"a\": [\n    {\n      \"k\": 1\n    }\n  ],\n  \"z\": \"\"\n}",
                PythonJson.dumpsForTemplate(Map.of("a", List.of(Map.of("k", 1L)), "z", ""), 2));
    }
}
