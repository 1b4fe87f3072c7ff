package org.sourceoftruth.records.contract;

import java.util.List;

/**
 * What a filter's base name (the parameter without its lookup suffix) refers to on the object
 * under test: values the object must match (any one of them, e.g. a related object's slug or
 * name) and a value it must not match. {@code raw} is the object's own value (null or "" when
 * unset), which decides {@code __empty}. An empty {@code matching} means only the exclusion
 * half can be checked; a null {@code nonMatching} that only the inclusion half can.
 */
record Subject(Kind kind, String raw, List<String> matching, String nonMatching, String how, List<String> others) {
    enum Kind {
        TEXT,
        NUMBER,
        DATETIME,
        DATE,
        BOOLEAN,
        REF,
        UUID
    }

    /**
     * {@code others}: values the object must not match, {@code nonMatching} first; for a related
     * object, another object's slug, name, model... in the order of {@code matching}, so that the
     * exclusion half can use the key the filter takes.
     */
    Subject(Kind kind, String raw, List<String> matching, String nonMatching, String how) {
        this(kind, raw, matching, nonMatching, how, nonMatching == null ? List.of() : List.of(nonMatching));
    }

    boolean isEmptyValue() {
        return raw == null || raw.isEmpty() || raw.equals("[]");
    }
}
