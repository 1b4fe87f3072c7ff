package org.sourceoftruth.records.model;

import java.util.function.UnaryOperator;

/**
 * What a declared field is. The kind says where the value is stored; its behaviour (reading,
 * validation, filter lookups, rendering, snapshots, OPTIONS and OpenAPI) is the kind's
 * FieldType in package {@code fieldtype}.
 */
public enum Kind {
    /** varchar / text column. */
    STRING(Storage.OWN_COLUMN, "text"),
    /** varchar column restricted to letters, digits, underscores and hyphens. */
    SLUG(Storage.OWN_COLUMN, "text"),
    /** integer or bigint column. */
    INTEGER(Storage.OWN_COLUMN, "bigint"),
    /** numeric column, rendered as a JSON number. */
    DECIMAL(Storage.OWN_COLUMN, "numeric"),
    BOOLEAN(Storage.OWN_COLUMN, "boolean"),
    DATE(Storage.OWN_COLUMN, "date"),
    DATETIME(Storage.OWN_COLUMN, "timestamptz"),
    /** jsonb (or json) column holding any JSON value. */
    JSON(Storage.UNORDERED_COLUMN, "text"),
    /** varchar column holding one value of a {@link ChoiceSet}; rendered {value,label}. */
    CHOICE(Storage.OWN_COLUMN, "text"),
    /** text[] column of plain strings (e.g. content types, event types). */
    STRING_LIST(Storage.UNORDERED_COLUMN, "text"),
    /** integer[] column of whole numbers (e.g. a rack reservation's units). */
    INTEGER_LIST(Storage.UNORDERED_COLUMN, "bigint"),
    /** bigint column {@code <name>_id} referencing another model; rendered as that model's nested form. */
    FK(Storage.ID_COLUMN, "text"),
    /** many-to-many through a join table; written as a list of ids. */
    M2M(Storage.ELSEWHERE, "text"),
    /** tags through extras_taggeditem; written as ids or attribute dicts. */
    TAGS(Storage.ELSEWHERE, "text"),
    /** jsonb column custom_field_data; rendered with every defined custom field. */
    CUSTOM_FIELDS(Storage.CUSTOM_FIELD_DATA, "text"),
    /** read-only count of related rows (e.g. site.device_count). */
    COUNT(Storage.COUNTED, "bigint"),
    /** read-only value computed from the row by the declaration. */
    COMPUTED(Storage.COMPUTED, "text"),
    /** PostgreSQL inet column (host address with mask). */
    INET(Storage.OWN_COLUMN, "text"),
    /** PostgreSQL cidr column (network prefix). */
    CIDR(Storage.OWN_COLUMN, "text"),
    /** content type + id pair (assigned_object_type/assigned_object_id) with a read-side object. */
    GENERIC_FK(Storage.ELSEWHERE, "text"),
    /**
     * varchar column naming an uploaded image kept in the media table ('' when none); written
     * with a multipart file part, rendered as the file's /media/ URL.
     */
    IMAGE(Storage.OWN_COLUMN, "text");

    /** Where a field of the kind keeps its value, which decides its column and whether it orders and is written. */
    private enum Storage {
        /** a column named like the field */
        OWN_COLUMN(name -> name, true, false),
        /** a column named like the field that SQL cannot order (json, arrays) */
        UNORDERED_COLUMN(name -> name, false, false),
        /** the column {@code <name>_id} */
        ID_COLUMN(name -> name + "_id", true, false),
        /** the column custom_field_data */
        CUSTOM_FIELD_DATA(name -> "custom_field_data", false, false),
        /** other tables (join tables, tagged items) or a pair of columns */
        ELSEWHERE(name -> null, false, false),
        /** counted from other tables: read-only, orderable */
        COUNTED(name -> null, true, true),
        /** computed from the row: read-only */
        COMPUTED(name -> null, false, true);

        final UnaryOperator<String> column;
        final boolean orderable;
        final boolean derived;

        Storage(UnaryOperator<String> column, boolean orderable, boolean derived) {
            this.column = column;
            this.orderable = orderable;
            this.derived = derived;
        }
    }

    private final Storage storage;
    private final String literalType;

    Kind(Storage storage, String literalType) {
        this.storage = storage;
        this.literalType = literalType;
    }

    /** The column of a field of this kind named {@code name}, or null when it has none of its own. */
    public String column(String name) {
        return storage.column.apply(name);
    }

    /** Whether a field of this kind orders lists by default. */
    public boolean isOrderable() {
        return storage.orderable;
    }

    /** A value derived from other data (a count, a computed value): read-only, never written. */
    public boolean isDerived() {
        return storage.derived;
    }

    /** The PostgreSQL type of a literal compared as a value of this kind (a number, a date, else text). */
    public String literalType() {
        return literalType;
    }
}
