package org.sourceoftruth.records.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.List;
import java.util.function.Function;
import org.sourceoftruth.model.Json;

/** Static factories for field declarations: {@code str("name").max(100).required()}. */
public final class Fields {
    private Fields() {}

    public static Field str(String name) {
        return new Field(name, Kind.STRING).dflt("");
    }

    public static Field text(String name) {
        return new Field(name, Kind.STRING).dflt("");
    }

    public static Field slug(String name) {
        return new Field(name, Kind.SLUG).max(100).required();
    }

    public static Field integer(String name) {
        return new Field(name, Kind.INTEGER);
    }

    public static Field decimal(String name) {
        return new Field(name, Kind.DECIMAL);
    }

    public static Field bool(String name) {
        return new Field(name, Kind.BOOLEAN);
    }

    public static Field date(String name) {
        return new Field(name, Kind.DATE);
    }

    public static Field datetime(String name) {
        return new Field(name, Kind.DATETIME);
    }

    public static Field json(String name) {
        return new Field(name, Kind.JSON);
    }

    public static Field inet(String name) {
        return new Field(name, Kind.INET);
    }

    public static Field cidr(String name) {
        return new Field(name, Kind.CIDR);
    }

    public static Field stringList(String name) {
        return new Field(name, Kind.STRING_LIST).dflt(List.of());
    }

    public static Field integerList(String name) {
        return new Field(name, Kind.INTEGER_LIST);
    }

    public static Field choice(String name, ChoiceSet choices) {
        Field f = new Field(name, Kind.CHOICE);
        f.choices = choices;
        return f;
    }

    /**
     * A choice field that DRF renders as the plain value (no {value,label}), e.g. a webhook's
     * http_method; still validated against the set and listed in OPTIONS.
     */
    public static Field plainChoice(String name, ChoiceSet choices) {
        Field f = new Field(name, Kind.STRING).dflt("");
        f.choices = choices;
        return f;
    }

    /** Foreign key to the model with content type {@code target}; stored in {@code <name>_id}. */
    public static Field fk(String name, String target) {
        Field f = new Field(name, Kind.FK).nullable();
        f.target = target;
        return f;
    }

    /** Many-to-many through {@code joinTable(ownColumn, targetColumn)}. */
    public static Field m2m(String name, String target, String joinTable, String ownColumn, String targetColumn) {
        Field f = new Field(name, Kind.M2M);
        f.target = target;
        f.joinTable = joinTable;
        f.joinOwnColumn = ownColumn;
        f.joinTargetColumn = targetColumn;
        return f;
    }

    /**
     * An uploaded image (NetBox's ImageField): written as a multipart file part, stored in the
     * media table under the name {@code naming} gives it, rendered as its /media/ URL.
     */
    public static Field image(String name, Field.ImageNaming naming) {
        Field f = new Field(name, Kind.IMAGE);
        f.imageNaming = naming;
        f.filterable = false;
        return f;
    }

    public static Field tags() {
        return new Field("tags", Kind.TAGS);
    }

    public static Field customFields() {
        return new Field("custom_fields", Kind.CUSTOM_FIELDS);
    }

    /** Read-only count of rows of {@code table} whose {@code column} points at this object. */
    public static Field count(String name, String table, String column) {
        Field f = new Field(name, Kind.COUNT);
        f.countTable = table;
        f.countColumn = column;
        return f;
    }

    /**
     * The number of rows of the model {@code contentType} (usually another application's) whose
     * {@code column} points here. Its table is the counted model's, which the registry supplies:
     * the declaration names the model, as a relation does, not its table.
     */
    public static Field countOf(String name, String contentType, String column) {
        Field f = new Field(name, Kind.COUNT);
        f.countContentType = contentType;
        f.countColumn = column;
        return f;
    }

    public static Field computed(String name, Function<Row, Object> fn) {
        Field f = new Field(name, Kind.COMPUTED);
        f.computed = fn;
        return f;
    }

    /**
     * A field pointing at a model this service does not build yet (virtual chassis, config
     * templates, MAC addresses, module bays...): read-only and rendered as NetBox renders it when
     * unset ({@code null}, {@code []}, {@code 0} or {@code ""}), so clients see NetBox's shape.
     * It becomes a real fk, m2m or count when its model lands.
     */
    public static Field notBuilt(String name, Object unsetValue) {
        Field f = computed(name, r -> unsetValue);
        f.unsetValue = unsetValue;
        // the unset value tells its type; null (an unbuilt relation) could be anything
        if (unsetValue instanceof Number) {
            f.renders(Kind.INTEGER);
        } else if (unsetValue instanceof String) {
            f.renders(Kind.STRING);
        } else if (unsetValue instanceof Boolean) {
            f.renders(Kind.BOOLEAN);
        } else if (unsetValue instanceof List<?>) {
            f.renders(Kind.M2M);
        }
        return f;
    }

    /**
     * {@link #notBuilt} counts of models not built yet: always 0, and number filters as NetBox's
     * counter fields ({@code console_port_count__gt=0} matches none).
     */
    public static Field[] notBuiltCounts(String... names) {
        Field[] out = new Field[names.length];
        for (int i = 0; i < names.length; i++) {
            out[i] = notBuilt(names[i], 0).filtersAs(Kind.INTEGER);
        }
        return out;
    }

    /** A content-type/id pair such as assigned_object_type + assigned_object_id. */
    public static Field genericFk(String name, String typeColumn, String idColumn, List<String> allowedTypes) {
        Field f = new Field(name, Kind.GENERIC_FK);
        f.genericTypeColumn = typeColumn;
        f.genericIdColumn = idColumn;
        f.genericTypes = List.copyOf(allowedTypes);
        f.nullable = true;
        return f;
    }

    /**
     * A content-type/id pair that may point at any declared model {@code targets} accepts (a
     * bookmark's object: every model with NetBox's feature set); the registry lists them once
     * every model is declared.
     */
    public static Field genericFkToAny(
            String name, String typeColumn, String idColumn, java.util.function.Predicate<Model> targets) {
        Field f = genericFk(name, typeColumn, idColumn, List.of());
        f.genericTargetRule = targets;
        return f;
    }

    static JsonNode json(Object value) {
        if (value == null) {
            return JsonNodeFactory.instance.nullNode();
        }
        return Json.MAPPER.valueToTree(value);
    }
}
