package org.sourceoftruth.records.model;

import java.util.List;
import java.util.Set;

/**
 * Uniqueness over one or several columns, checked before writing so a violation becomes NetBox's
 * message instead of a database error, and enforced by the database's unique indexes so that it
 * holds under concurrent writers too (see {@code engine.write.UniqueIndexes}). NULLs compare equal
 * (a top-level region name is unique among top-level regions), unless a column is listed in
 * skipIfNull; in the database each pattern of NULL columns is one partial unique index.
 *
 * @param columns           columns that together must be unique
 * @param message           message when the first column is set
 * @param topLevelMessage   message when the first (scoping) column is null; null = use message
 * @param caseInsensitive   columns compared case-insensitively
 * @param skipIfNull        the rule does not apply when any of these columns is null
 * @param skipIfBlank       the rule does not apply when any of these columns is null or blank
 *                          (Django constraints with {@code condition=~Q(name="")})
 * @param onlyIfNull        the rule applies only while these columns (not among {@code columns})
 *                          are null (Django constraints with {@code condition=Q(cluster__isnull=True)})
 * @param errorKey          the key of the 400 body the message is reported under: the field's
 *                          name for a unique field, {@code __all__} for a rule over several
 */
public record UniqueRule(
        List<String> columns,
        String message,
        String topLevelMessage,
        Set<String> caseInsensitive,
        Set<String> skipIfNull,
        Set<String> skipIfBlank,
        Set<String> onlyIfNull,
        String errorKey) {

    /** The key of the errors of rules over several fields (DRF's non-field errors). */
    public static final String ALL = "__all__";

    public static UniqueRule of(String message, String... columns) {
        return new UniqueRule(List.of(columns), message, null, Set.of(), Set.of(), Set.of(), Set.of(), ALL);
    }

    /** The rule of a unique field: its column, not applied to NULLs, reported on the field. */
    static UniqueRule ofField(Model model, Field field) {
        return new UniqueRule(
                List.of(field.column()),
                model.verboseName() + " with this " + field.name.replace('_', ' ') + " already exists.",
                null,
                Set.of(),
                Set.of(field.column()),
                Set.of(),
                Set.of(),
                field.name);
    }

    public UniqueRule topLevel(String msg) {
        return new UniqueRule(columns, message, msg, caseInsensitive, skipIfNull, skipIfBlank, onlyIfNull, errorKey);
    }

    public UniqueRule ignoreCase(String... cols) {
        return new UniqueRule(
                columns, message, topLevelMessage, Set.of(cols), skipIfNull, skipIfBlank, onlyIfNull, errorKey);
    }

    public UniqueRule skipIfNull(String... cols) {
        return new UniqueRule(
                columns, message, topLevelMessage, caseInsensitive, Set.of(cols), skipIfBlank, onlyIfNull, errorKey);
    }

    public UniqueRule skipIfBlank(String... cols) {
        return new UniqueRule(
                columns, message, topLevelMessage, caseInsensitive, skipIfNull, Set.of(cols), onlyIfNull, errorKey);
    }

    public UniqueRule onlyIfNull(String... cols) {
        return new UniqueRule(
                columns, message, topLevelMessage, caseInsensitive, skipIfNull, skipIfBlank, Set.of(cols), errorKey);
    }

    /** Whether the rule is a unique field's (its errors are the field's, checked before the others). */
    public boolean isFieldRule() {
        return !ALL.equals(errorKey);
    }

    /** The columns the rule reads: its own and those of its conditions. */
    public Set<String> readColumns() {
        Set<String> read = new java.util.LinkedHashSet<>(columns);
        read.addAll(skipIfNull);
        read.addAll(skipIfBlank);
        read.addAll(onlyIfNull);
        return read;
    }

    /** Whether the rule applies to the row (every condition column as required). */
    public boolean appliesTo(Row row) {
        return skipIfNull.stream().noneMatch(c -> row.get(c) == null)
                && skipIfBlank.stream().noneMatch(c -> row.get(c) == null || "".equals(row.get(c)))
                && onlyIfNull.stream().allMatch(c -> row.get(c) == null);
    }

    /** The message for a duplicate of the row: the top-level one when its first (scoping) column is null. */
    public String messageFor(Row row) {
        return row.get(columns.get(0)) == null && topLevelMessage != null ? topLevelMessage : message;
    }
}
