package org.sourceoftruth.model.conditions;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** Comparison operators of a condition, named as NetBox names them in JSON. */
public enum Operator {
    EQ,
    GT,
    GTE,
    LT,
    LTE,
    IN,
    CONTAINS,
    REGEX;

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    static Optional<Operator> fromJsonName(String name) {
        return Arrays.stream(values()).filter(op -> op.jsonName().equals(name)).findFirst();
    }

    static String allJsonNames() {
        return Arrays.stream(values()).map(Operator::jsonName).collect(Collectors.joining(", "));
    }
}
