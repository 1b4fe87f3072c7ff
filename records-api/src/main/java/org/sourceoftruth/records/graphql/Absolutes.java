package org.sourceoftruth.records.graphql;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;

/**
 * NetBox's normalised measures ({@code _abs_weight} in grams, {@code _abs_distance} and
 * {@code _abs_length} in metres), which it stores beside a value and its unit to order by; here
 * computed from the two as NetBox's {@code to_grams} and {@code to_meters} compute them.
 */
final class Absolutes {
    /** A normalised measure: its field, the value and unit fields it comes from, the factor of each unit, and whether it is whole. */
    record Measure(String name, String value, String unit, Map<String, BigDecimal> factors, boolean whole) {
        /** The measure of an object's REST rendering, or null without a value or a known unit. */
        Object of(JsonNode node) {
            JsonNode v = node.get(value);
            JsonNode u = node.get(unit);
            if (v == null || v.isNull() || u == null || u.isNull()) {
                return null;
            }
            String unitValue = u.isObject() ? u.path("value").asText("") : u.asText("");
            BigDecimal factor = factors.get(unitValue);
            if (factor == null || !(v.isNumber() || v.isTextual())) {
                return null;
            }
            BigDecimal amount;
            try {
                amount = new BigDecimal(v.asText()).multiply(factor);
            } catch (NumberFormatException e) {
                return null;
            }
            return whole ? amount.setScale(0, RoundingMode.DOWN).longValue() : amount.stripTrailingZeros();
        }
    }

    private static final Map<String, BigDecimal> GRAMS = Map.of(
            "kg",
            BigDecimal.valueOf(1000),
            "g",
            BigDecimal.ONE,
            "lb",
            new BigDecimal("453.592"),
            "oz",
            new BigDecimal("28.3495"));
    private static final Map<String, BigDecimal> METERS = Map.of(
            "km",
            BigDecimal.valueOf(1000),
            "m",
            BigDecimal.ONE,
            "cm",
            new BigDecimal("0.01"),
            "mi",
            new BigDecimal("1609.344"),
            "ft",
            new BigDecimal("0.3048"),
            "in",
            new BigDecimal("0.0254"));

    static final List<Measure> ALL = List.of(
            new Measure("_abs_weight", "weight", "weight_unit", GRAMS, true),
            new Measure("_abs_max_weight", "max_weight", "weight_unit", GRAMS, true),
            new Measure("_abs_distance", "distance", "distance_unit", METERS, false),
            new Measure("_abs_length", "length", "length_unit", METERS, false));

    private Absolutes() {}

    static Measure named(String name) {
        for (Measure m : ALL) {
            if (m.name().equals(name)) {
                return m;
            }
        }
        return null;
    }
}
