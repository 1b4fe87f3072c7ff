package org.sourceoftruth.records.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An ordered set of choice values with their display labels, as NetBox's ChoiceSet. */
public final class ChoiceSet {
    private final Map<String, String> labels;
    private boolean numeric;
    private boolean plain;

    private ChoiceSet(Map<String, String> labels) {
        this.labels = Collections.unmodifiableMap(labels);
    }

    /** {@code ChoiceSet.of("active", "Active", "planned", "Planned")}. */
    public static ChoiceSet of(String... valueLabelPairs) {
        if (valueLabelPairs.length % 2 != 0) {
            throw new IllegalArgumentException("choices come in value/label pairs");
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < valueLabelPairs.length; i += 2) {
            map.put(valueLabelPairs[i], valueLabelPairs[i + 1]);
        }
        return new ChoiceSet(map);
    }

    /** Values whose label is the value with its first letter capitalised. */
    public static ChoiceSet capitalised(String... values) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String v : values) {
            map.put(v, Character.toUpperCase(v.charAt(0)) + v.substring(1));
        }
        return new ChoiceSet(map);
    }

    /** Values are integers (e.g. rack width 19): rendered and compared as numbers. */
    public ChoiceSet numeric() {
        numeric = true;
        return this;
    }

    /** Rendered as the bare value, not {value,label} (DRF's plain ChoiceField, e.g. term_side). */
    public ChoiceSet plain() {
        plain = true;
        return this;
    }

    public boolean isPlain() {
        return plain;
    }

    public boolean isNumeric() {
        return numeric;
    }

    public boolean contains(String value) {
        return labels.containsKey(value);
    }

    public String label(String value) {
        return labels.getOrDefault(value, "");
    }

    public List<String> values() {
        return new ArrayList<>(labels.keySet());
    }

    public Map<String, String> asMap() {
        return labels;
    }
}
