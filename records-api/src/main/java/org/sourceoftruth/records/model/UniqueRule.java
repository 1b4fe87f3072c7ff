package org.sourceoftruth.records.model;

import java.util.List;
import java.util.Set;

/**
 * Uniqueness over several columns, checked before writing so a violation becomes NetBox's
 * {@code __all__} message instead of a database error. NULLs compare equal (a top-level
 * region name is unique among top-level regions), unless a column is listed in skipIfNull.
 *
 * @param columns           columns that together must be unique
 * @param message           message when the first column is set
 * @param topLevelMessage   message when the first (scoping) column is null; null = use message
 * @param caseInsensitive   columns compared case-insensitively
 * @param skipIfNull        the rule does not apply when any of these columns is null
 * @param skipIfBlank       the rule does not apply when any of these columns is null or blank
 *                          (Django constraints with {@code condition=~Q(name="")})
 */
public record UniqueRule(
        List<String> columns,
        String message,
        String topLevelMessage,
        Set<String> caseInsensitive,
        Set<String> skipIfNull,
        Set<String> skipIfBlank) {

    public static UniqueRule of(String message, String... columns) {
        return new UniqueRule(List.of(columns), message, null, Set.of(), Set.of(), Set.of());
    }

    public UniqueRule topLevel(String msg) {
        return new UniqueRule(columns, message, msg, caseInsensitive, skipIfNull, skipIfBlank);
    }

    public UniqueRule ignoreCase(String... cols) {
        return new UniqueRule(columns, message, topLevelMessage, Set.of(cols), skipIfNull, skipIfBlank);
    }

    public UniqueRule skipIfNull(String... cols) {
        return new UniqueRule(columns, message, topLevelMessage, caseInsensitive, Set.of(cols), skipIfBlank);
    }

    public UniqueRule skipIfBlank(String... cols) {
        return new UniqueRule(columns, message, topLevelMessage, caseInsensitive, skipIfNull, Set.of(cols));
    }
}
