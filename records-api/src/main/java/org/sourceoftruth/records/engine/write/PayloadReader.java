package org.sourceoftruth.records.engine.write;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.customfields.CustomFields;
import org.sourceoftruth.records.engine.store.RowChanges;
import org.sourceoftruth.records.fieldtype.FieldTypes;
import org.sourceoftruth.records.fieldtype.InvalidValue;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;
import org.sourceoftruth.records.web.ErrorMapper;

/**
 * Reads one JSON object of a write request into column values, following DRF/NetBox rules:
 * required fields, types, lengths, ranges, choice values, slugs, relations given by id or by
 * an attribute dict that must match exactly one object ({@link ReferenceResolver}), many-to-many
 * ids, tags and content-type/id pairs ({@link RelationReader}), custom fields, and what the
 * number columns can hold ({@link ColumnLimits}). All problems are
 * collected as {field: [messages]}; uniqueness and model rules follow ({@link RowValidator}).
 */
@ApplicationScoped
public class PayloadReader {
    @Inject
    ModelRegistry registry;

    @Inject
    CustomFields customFields;

    @Inject
    ReferenceResolver references;

    @Inject
    RelationReader relations;

    /**
     * @param existing the stored row on update (locked), null on create
     * @param partial  PATCH semantics: absent required fields are fine
     */
    public RowChanges read(
            Db db, Model model, JsonNode body, Row existing, boolean partial, Map<String, List<String>> errors) {
        Row cols = new Row();
        Map<Field, List<Long>> m2m = new LinkedHashMap<>();
        List<Long> tags = null;
        if (!body.isObject()) {
            errors.computeIfAbsent("non_field_errors", k -> new ArrayList<>())
                    .add("Invalid data. Expected a dictionary, but got " + ErrorMapper.jsonType(body) + ".");
            return new RowChanges(cols, m2m, null);
        }
        boolean create = existing == null;
        for (Field f : model.fields()) {
            if (!f.isWritable()) {
                continue;
            }
            if (f.kind == Kind.GENERIC_FK) {
                relations.readGeneric(db, f, body, existing, create || !partial, cols, errors);
                continue;
            }
            JsonNode v = value(body, f);
            if (v == null) {
                if (f.isRequired() && (create || !partial)) {
                    add(errors, f.name, "This field is required.");
                } else if (create && f.isColumn() && f.kind != Kind.CUSTOM_FIELDS) {
                    JsonNode d = f.defaultValue();
                    cols.put(f.column(), d == null || d.isNull() ? null : convertDefault(f, d));
                }
                if (create && f.kind == Kind.CUSTOM_FIELDS) {
                    cols.put(f.column(), customFields.merge(model, null, null, true, errors));
                }
                continue;
            }
            try {
                switch (f.kind) {
                    // a request-only relation's ids go to the write hooks, not to a join table
                    case M2M -> {
                        if (f.isRequestOnly()) {
                            cols.put(f.name, relations.readM2m(db, f, v));
                        } else {
                            m2m.put(f, relations.readM2m(db, f, v));
                        }
                    }
                    case TAGS -> tags = relations.readTags(db, f, v);
                    case CUSTOM_FIELDS ->
                        cols.put(
                                f.column(),
                                customFields.merge(
                                        model,
                                        v,
                                        existing == null ? null : (JsonNode) existing.get(f.column()),
                                        create,
                                        errors));
                    case FK ->
                        cols.put(
                                f.column(),
                                v.isNull() ? nullOrError(f) : references.resolve(db, registry.require(f.target()), v));
                    default -> {
                        ColumnLimits.check(db, model, f, v);
                        cols.put(f.column(), v.isNull() ? nullOrError(f) : transform(f, convert(f, v)));
                    }
                }
            } catch (FieldError e) {
                add(errors, f.name, e.getMessage());
            }
        }
        if (model.hasTags() && (body.has(ADD_TAGS) || body.has(REMOVE_TAGS))) {
            tags = addAndRemoveTags(db, model, body, existing, tags, errors);
        }
        return new RowChanges(cols, m2m, tags);
    }

    /** NetBox's write-only tag changes of every taggable model: tags to add to and remove from the object's. */
    public static final String ADD_TAGS = "add_tags";

    public static final String REMOVE_TAGS = "remove_tags";

    /**
     * NetBox's TaggableModelSerializer: {@code add_tags} and {@code remove_tags} change the
     * object's tags without restating them; not together with a non-empty {@code tags} (which
     * otherwise wins), no {@code remove_tags} on create, no tag in both. Returns the tags to
     * store, or {@code tags} unchanged when it was sent.
     */
    private List<Long> addAndRemoveTags(
            Db db, Model model, JsonNode body, Row existing, List<Long> tags, Map<String, List<String>> errors) {
        Field tagsField = model.field("tags");
        List<Long> added = List.of();
        List<Long> removed = List.of();
        try {
            added = body.has(ADD_TAGS) ? relations.readTags(db, tagsField, body.get(ADD_TAGS)) : List.of();
        } catch (FieldError e) {
            add(errors, ADD_TAGS, e.getMessage());
        }
        try {
            removed = body.has(REMOVE_TAGS) ? relations.readTags(db, tagsField, body.get(REMOVE_TAGS)) : List.of();
        } catch (FieldError e) {
            add(errors, REMOVE_TAGS, e.getMessage());
        }
        if (tags != null && !tags.isEmpty() && (!added.isEmpty() || !removed.isEmpty())) {
            add(errors, "tags", "Cannot specify \"tags\" together with \"add_tags\" or \"remove_tags\".");
        }
        if (existing == null && !removed.isEmpty()) {
            add(errors, REMOVE_TAGS, "Cannot use \"remove_tags\" when creating a new object.");
        }
        List<Long> both = added.stream().filter(removed::contains).toList();
        if (!both.isEmpty()) {
            List<String> names = db
                    .query(
                            "select name from " + SystemTables.EXTRAS_TAG + " where id = any(?) order by name",
                            new Db.SqlArray("bigint", both))
                    .stream()
                    .map(r -> r.str("name"))
                    .toList();
            add(
                    errors,
                    REMOVE_TAGS,
                    "Tags may not be present in both \"add_tags\" and \"remove_tags\": " + String.join(", ", names));
        }
        if (tags != null || !errors.isEmpty()) {
            return tags;
        }
        java.util.LinkedHashSet<Long> result = new java.util.LinkedHashSet<>();
        if (existing != null) {
            db.query(
                            "select tag_id from " + SystemTables.EXTRAS_TAGGEDITEM
                                    + " where object_type = ? and object_id = ? order by tag_id",
                            model.contentType(),
                            existing.id())
                    .forEach(r -> result.add(r.longValue("tag_id")));
        }
        result.addAll(added);
        removed.forEach(result::remove);
        return List.copyOf(result);
    }

    static void add(Map<String, List<String>> errors, String field, String message) {
        errors.computeIfAbsent(field, k -> new ArrayList<>()).add(message);
    }

    static JsonNode value(JsonNode body, Field f) {
        JsonNode v = body.get(f.name);
        if (v == null) {
            for (String alias : f.writeAliases()) {
                v = body.get(alias);
                if (v != null) {
                    break;
                }
            }
        }
        return v;
    }

    /** The declaration's write transform (e.g. password hashing); its rejection is a field error. */
    private static Object transform(Field f, Object value) {
        if (f.writeTransform() == null) {
            return value;
        }
        try {
            return f.writeTransform().apply(value);
        } catch (IllegalArgumentException e) {
            throw new FieldError(e.getMessage());
        }
    }

    private static Object nullOrError(Field f) {
        if (!f.isNullable()) {
            throw new FieldError("This field may not be null.");
        }
        return null;
    }

    /** A bad value for one field; the message goes under the field's name. */
    static final class FieldError extends RuntimeException {
        FieldError(String message) {
            super(message, null, false, false);
        }
    }

    /** A declared default, read as if it had been sent. */
    private static Object convertDefault(Field f, JsonNode d) {
        return convert(f, d);
    }

    /** Converts and checks one value as its field's kind reads it, with DRF's messages. */
    static Object convert(Field f, JsonNode v) {
        try {
            return FieldTypes.of(f).read(f, v);
        } catch (InvalidValue e) {
            throw new FieldError(e.getMessage());
        }
    }
}
