package org.sourceoftruth.records.model;

/**
 * What a declared field is. The kind decides how the engine reads and writes the column, which
 * filter lookups it gets (as NetBox's filterset maps do) and how it is rendered.
 */
public enum Kind {
    /** varchar / text column. */
    STRING,
    /** varchar column restricted to letters, digits, underscores and hyphens. */
    SLUG,
    /** integer or bigint column. */
    INTEGER,
    /** numeric column, rendered as a JSON number. */
    DECIMAL,
    BOOLEAN,
    DATE,
    DATETIME,
    /** jsonb column holding any JSON value. */
    JSON,
    /** varchar column holding one value of a {@link ChoiceSet}; rendered {value,label}. */
    CHOICE,
    /** text[] column of plain strings (e.g. content types, event types). */
    STRING_LIST,
    /** bigint column referencing another model; rendered as that model's nested form. */
    FK,
    /** many-to-many through a join table; written as a list of ids. */
    M2M,
    /** tags through extras_taggeditem; written as ids or attribute dicts. */
    TAGS,
    /** jsonb column custom_field_data; rendered with every defined custom field. */
    CUSTOM_FIELDS,
    /** read-only count of related rows (e.g. site.device_count). */
    COUNT,
    /** read-only value computed from the row by the declaration. */
    COMPUTED,
    /** PostgreSQL inet column (host address with mask). */
    INET,
    /** PostgreSQL cidr column (network prefix). */
    CIDR,
    /** content type + id pair (assigned_object_type/assigned_object_id) with a read-side object. */
    GENERIC_FK
}
