package org.sourceoftruth.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The values table in the chart's README and values.yaml describe the same keys. */
class ChartReadmeTest {

    /** The first cell of a table row: | `recordsApi.port` | ... */
    private static final Pattern DOCUMENTED_KEY = Pattern.compile("^\\|\\s*`([A-Za-z0-9_.]+)`\\s*\\|");

    @Test
    void everyValueIsDocumentedAndEveryDocumentedValueExists() throws IOException {
        Map<?, ?> values = Serialization.yamlMapper()
                .readValue(SotChart.DIRECTORY.resolve("values.yaml").toFile(), Map.class);
        List<String> leaves = new ArrayList<>();
        collectLeaves(values, "", leaves);
        Set<String> documented = Files.readAllLines(SotChart.DIRECTORY.resolve("README.md")).stream()
                .map(DOCUMENTED_KEY::matcher)
                .filter(Matcher::find)
                .map(matcher -> matcher.group(1))
                .collect(Collectors.toSet());

        // A documented map (e.g. recordsApi.resources) covers the keys inside it.
        List<String> undocumented = leaves.stream()
                .filter(leaf -> documented.stream().noneMatch(key -> leaf.equals(key) || leaf.startsWith(key + ".")))
                .toList();
        List<String> stale = documented.stream()
                .filter(key -> leaves.stream().noneMatch(leaf -> leaf.equals(key) || leaf.startsWith(key + ".")))
                .sorted()
                .toList();
        assertEquals(List.of(), undocumented, "values.yaml keys missing from the README values table");
        assertEquals(List.of(), stale, "README documents keys that values.yaml does not have");
    }

    private static void collectLeaves(Map<?, ?> map, String prefix, List<String> leaves) {
        map.forEach((key, value) -> {
            String path = prefix + key;
            if (value instanceof Map<?, ?> nested && !nested.isEmpty()) {
                collectLeaves(nested, path + ".", leaves);
            } else {
                leaves.add(path);
            }
        });
    }
}
