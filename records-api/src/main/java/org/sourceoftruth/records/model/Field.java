package org.sourceoftruth.records.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * One declared field of a model. Declarations are built with the fluent setters from
 * {@link Fields}; the engine reads them and never needs per-model code.
 */
public final class Field {
    /**
     * What happens to rows pointing at an object that is deleted: refused (PROTECT), deleted too
     * (CASCADE) or their reference cleared (SET_NULL). The engine applies it and logs every row it
     * touches; the migration declares the same rule, as a safety net. For a generic FK, CASCADE
     * is NetBox's GenericRelation (the referring rows go with their target) and SET_NULL clears
     * both columns.
     */
    public enum OnDelete {
        PROTECT,
        CASCADE,
        SET_NULL
    }

    /** How a count field shows up when its model is rendered nested inside another object. */
    public enum NestedCount {
        DROP,
        ZERO,
        REAL
    }

    public final String name;
    public final Kind kind;
    String column;
    boolean required;
    boolean readOnly;
    boolean writeOnly;
    boolean secret;
    boolean sensitive;
    Function<Row, Object> revealedAs;
    java.util.function.UnaryOperator<Object> writeTransform;
    boolean nullable;
    boolean unique;
    boolean filterable = true;
    boolean orderable;
    Integer maxLength;
    BigDecimal minValue;
    BigDecimal maxValue;
    JsonNode defaultValue;
    ChoiceSet choices;
    String target;
    OnDelete onDelete = OnDelete.SET_NULL;
    List<String> clearedWith = List.of();
    String joinTable;
    String joinOwnColumn;
    String joinTargetColumn;
    String countTable;
    /** The counted model of {@link Fields#countOf}, whose table the registry sets as {@link #countTable}. */
    String countContentType;

    String countColumn;
    NestedCount nestedCount = NestedCount.DROP;
    Function<Row, Object> computed;
    String label;
    String helpText;
    String filterExpression;
    String readExpression;
    java.util.Set<String> protectedTypes = java.util.Set.of();
    java.util.regex.Pattern pattern;
    String patternMessage;
    final List<String> writeAliases = new ArrayList<>();
    List<String> genericTypes = List.of();
    /** When set, the generic relation may point at every declared model this accepts (resolved by the registry). */
    java.util.function.Predicate<Model> genericTargetRule;

    String genericTypeColumn;
    String genericIdColumn;
    List<String> nestedFields;
    String countWhere;
    String counterColumn;
    BatchLoader loader;
    boolean tagSlugs;
    Object unsetValue;
    Kind unsetFilterKind;
    boolean objectTypeIds;
    Kind renders;
    ChoiceSet renderedChoices;
    boolean renderedAsId;
    boolean detached;
    boolean requestOnly;
    boolean snapshotted;
    boolean unrendered;
    java.util.function.Function<String, java.util.Collection<ExtraFilter>> targetFilters;
    ImageNaming imageNaming;
    String imageHeightColumn;
    String imageWidthColumn;
    String imageBytesColumn;

    /**
     * Where an uploaded image of an IMAGE field is stored: its media name (NetBox's upload_to),
     * from the row as it will be written and the file name the client gave.
     */
    @FunctionalInterface
    public interface ImageNaming {
        String name(Row row, String uploadedFileName);
    }

    /** Set when the model holding the field is registered ({@link Model#freeze}). */
    private boolean frozen;

    void freeze() {
        frozen = true;
    }

    private void open() {
        if (frozen) {
            throw new IllegalStateException(
                    name + " is a registered model's field: its declaration can no longer change");
        }
    }

    Field(String name, Kind kind) {
        this.name = name;
        this.kind = kind;
        this.column = kind.column(name);
        this.orderable = kind.isOrderable();
        if (kind.isDerived()) {
            readOnly = true;
            filterable = false;
        }
    }

    // ----- fluent declaration -----
    public Field column(String c) {
        open();
        column = c;
        return this;
    }
    /**
     * Must be given on create (and on PUT). A required relation is a NOT NULL column, so it also
     * stops being nullable (relations are nullable by default, see {@link Fields#fk}): null is
     * DRF's "This field may not be null.", not a failed insert.
     */
    public Field required() {
        open();
        required = true;
        if (kind == Kind.FK) {
            nullable = false;
        }
        return this;
    }

    public Field readOnly() {
        open();
        readOnly = true;
        return this;
    }
    /** An IMAGE field's read-only columns that take the uploaded image's height and width (Django's height_field/width_field). */
    public Field imageSize(String heightColumn, String widthColumn) {
        open();
        imageHeightColumn = heightColumn;
        imageWidthColumn = widthColumn;
        return this;
    }
    /** An IMAGE field's read-only column that takes the uploaded file's size in bytes. */
    public Field imageBytes(String column) {
        open();
        imageBytesColumn = column;
        return this;
    }
    /** Accepted on write, never rendered; never a filter or ordering term (that would be an oracle). */
    public Field writeOnly() {
        open();
        writeOnly = true;
        filterable = false;
        orderable = false;
        return this;
    }
    /**
     * Stored and filtered like any field, but neither rendered nor accepted on write: a model
     * field that NetBox's serializer leaves out (a VLAN translation rule's tags and timestamps,
     * which its filterset still filters on).
     */
    public Field unrendered() {
        open();
        unrendered = true;
        writeOnly = true;
        readOnly = true;
        return this;
    }
    /** Left out of the output only (not a secret): filters and permission constraints still see it. */
    public boolean isUnrendered() {
        return unrendered;
    }
    /**
     * A secret such as a token key: writable, never a filter or ordering term, {@link #sensitive()
     * sensitive} (left out of change-log snapshots and event data), and rendered only in the
     * response to the request that created the object, or where the model says secrets are
     * readable ({@link Model#secretsReadable}); elsewhere it reads as null.
     */
    public Field secret() {
        open();
        secret = true;
        sensitive = true;
        filterable = false;
        orderable = false;
        return this;
    }
    /**
     * A secret the database does not hold (a v1 token's key, of which only a digest is stored):
     * what the response that reveals secrets (to the creating request) shows, when this gives
     * non-null; else the stored value.
     */
    public Field revealedAs(Function<Row, Object> value) {
        open();
        revealedAs = value;
        return this;
    }

    public Function<Row, Object> revealedAs() {
        return revealedAs;
    }
    /**
     * A value that must not travel beyond the API responses that show it (a webhook's signing
     * secret, which NetBox's API shows; a password hash, which no response shows): left out of
     * change records (their data and both snapshots), so out of the change events, webhook bodies
     * and the object-change API too, and out of exports and template contexts
     * ({@link #isSensitive}; docs/secrets.md).
     */
    public Field sensitive() {
        open();
        sensitive = true;
        return this;
    }
    /**
     * Applied to the converted value before it is stored (e.g. hashing a password). The
     * function may throw {@link IllegalArgumentException}; its message becomes the field error.
     */
    public Field onWrite(java.util.function.UnaryOperator<Object> transform) {
        open();
        writeTransform = transform;
        return this;
    }

    public Field nullable() {
        open();
        nullable = true;
        return this;
    }
    /** Never null: a generic relation both of whose columns must be given (a service's parent). */
    public Field notNull() {
        open();
        nullable = false;
        return this;
    }

    public Field unique() {
        open();
        unique = true;
        return this;
    }

    public Field noFilter() {
        open();
        filterable = false;
        return this;
    }

    public Field noOrder() {
        open();
        orderable = false;
        return this;
    }

    public Field max(int length) {
        open();
        maxLength = length;
        return this;
    }

    public Field range(long min, long max) {
        open();
        minValue = BigDecimal.valueOf(min);
        maxValue = BigDecimal.valueOf(max);
        return this;
    }

    /** A decimal range, as written in NetBox's validators (e.g. "-90.0", "90.0": its messages show them so). */
    public Field range(String min, String max) {
        open();
        minValue = new BigDecimal(min);
        maxValue = new BigDecimal(max);
        return this;
    }

    public Field min(long min) {
        open();
        minValue = BigDecimal.valueOf(min);
        return this;
    }

    public Field dflt(Object value) {
        open();
        defaultValue = Fields.json(value);
        return this;
    }

    public Field onDelete(OnDelete d) {
        open();
        onDelete = d;
        return this;
    }

    public Field protect() {
        open();
        onDelete = OnDelete.PROTECT;
        return this;
    }
    /**
     * A generic relation that protects its targets of these content types: deleting one is
     * refused while this object points at it, whatever {@link #onDelete} does for the other
     * types (a circuit termination goes with its site but protects its provider network).
     */
    public Field protecting(String... contentTypes) {
        open();
        protectedTypes = java.util.Set.of(contentTypes);
        return this;
    }

    public boolean protects(String contentType) {
        return protectedTypes.contains(contentType);
    }

    public Field cascade() {
        open();
        onDelete = OnDelete.CASCADE;
        return this;
    }
    /**
     * Columns cleared along with this reference when its target's delete clears it (SET_NULL), as
     * NetBox's signals do (a deleted virtual chassis also clears its members' vc_position).
     */
    public Field clearsWith(String... columns) {
        open();
        clearedWith = List.of(columns);
        return this;
    }

    public Field nestedCount(NestedCount n) {
        open();
        nestedCount = n;
        return this;
    }

    public Field label(String l) {
        open();
        label = l;
        return this;
    }

    public Field help(String h) {
        open();
        helpText = h;
        return this;
    }

    public Field alias(String writeAlias) {
        open();
        writeAliases.add(writeAlias);
        return this;
    }
    /** SQL used when filtering/ordering on this field (alias t), e.g. {@code t.request_id::text}. */
    public Field filterExpression(String sql) {
        open();
        filterExpression = sql;
        return this;
    }

    public String filterExpression() {
        return filterExpression != null ? filterExpression : "t." + column;
    }
    /**
     * A stored field whose value as read (rendered, filtered, ordered, snapshotted) is an SQL
     * expression over alias t rather than its column, e.g. a virtual machine's disk, which is the
     * sum of its virtual disks when it has any (NetBox keeps the column in step; here writes
     * still store the column and the read side is always current).
     */
    public Field readAs(String sql) {
        open();
        readExpression = sql;
        filterExpression = sql;
        return this;
    }

    public String readExpression() {
        return readExpression;
    }

    /** An FK rendered with these fields of its target instead of the target's brief set. */
    public Field nestedFields(String... names) {
        open();
        nestedFields = List.of(names);
        return this;
    }
    /** A COUNT restricted by an extra SQL condition on the counted table (alias-free column terms). */
    public Field countWhere(String sqlCondition) {
        open();
        countWhere = sqlCondition;
        return this;
    }
    /**
     * A COUNT kept in a column of the owner's table named like the field, as NetBox's
     * CounterCacheField: the migration adds the column and the triggers that maintain it
     * (sot_counter_cache), so reading the count costs no query.
     */
    public Field counterCache() {
        open();
        counterColumn = name;
        return this;
    }
    /**
     * A relation rendered as the target's id rather than its nested form, as DRF's
     * PrimaryKeyRelatedField (an inventory item's parent, an interface template's bridge).
     */
    public Field renderedAsId() {
        open();
        renderedAsId = true;
        return this;
    }

    public boolean isRenderedAsId() {
        return renderedAsId;
    }
    /**
     * A read-only relation (foreign key or generic) that deletes do not follow: the rows holding it are the
     * engine's own bookkeeping, removed with their target without a change record (a tag
     * assignment), so the target's delete neither cascades to them nor is refused by them.
     */
    public Field detached() {
        open();
        detached = true;
        readOnly = true;
        return this;
    }

    public boolean isDetached() {
        return detached;
    }
    /**
     * Written by requests but stored in no column of the model's table (a cable's
     * {@code a_terminations}): read and checked as its kind reads it, seen by validators and
     * write hooks under the field's name, then left out of the INSERT/UPDATE and of change-log
     * snapshots; rendered by its {@link #loader}. Not a filter. A many-to-many relation read
     * through a view (a circuit's group assignments) is rendered as any relation, and the ids
     * sent reach the write hooks (a list of ids under the field's name) instead of a join table.
     */
    public Field requestOnly() {
        open();
        requestOnly = true;
        filterable = false;
        orderable = false;
        return this;
    }

    public boolean isRequestOnly() {
        return requestOnly;
    }
    /**
     * A {@link #requestOnly() request-only} field that the change-log snapshots show all the
     * same, as its {@link #loader} gives it (a front port's port mappings, which live in rows of
     * their own but are part of the port's state).
     */
    public Field snapshotted() {
        open();
        if (!requestOnly || loader == null) {
            throw new IllegalStateException(name + ": only a request-only field with a loader is snapshotted");
        }
        snapshotted = true;
        return this;
    }

    public boolean isSnapshotted() {
        return snapshotted;
    }
    /** A computed field loaded for a whole page at once (one query per page, not per row). */
    public Field loader(BatchLoader l) {
        open();
        loader = l;
        return this;
    }
    /**
     * What a computed field's value is (INTEGER, STRING, BOOLEAN, STRING_LIST, JSON ...), for the
     * OpenAPI document: the engine cannot see through the function. Unset: any JSON value.
     */
    public Field renders(Kind valueKind) {
        open();
        renders = valueKind;
        return this;
    }
    /** A computed field rendered as {@code {value, label}} of these choices (e.g. an address's family). */
    public Field rendersChoice(ChoiceSet set) {
        open();
        renders = Kind.CHOICE;
        renderedChoices = set;
        return this;
    }
    /** Tags read and written as a list of slugs (NetBox's config contexts). */
    public Field slugs() {
        open();
        tagSlugs = true;
        return this;
    }
    /**
     * Filters on a {@link Fields#notBuilt} field as NetBox's filters on it (with their lookups)
     * answer while every object has the unset value: {@code console_port_count=0} matches all,
     * {@code vc_position=1} none, {@code vc_position__empty=true} all.
     */
    public Field filtersAs(Kind valueKind) {
        open();
        if (kind != Kind.COMPUTED) {
            throw new IllegalStateException(name + ": only a notBuilt field filters on its unset value");
        }
        unsetFilterKind = valueKind;
        return this;
    }

    /**
     * An integer field with NetBox's choices (a PositiveSmallIntegerField with {@code choices}, e.g.
     * a data source's {@code sync_interval}): read, stored and rendered as a plain integer, only
     * the set's values are valid, and its filter is NetBox's ChoiceFilter (exact values must be
     * choices; the text lookups compare the number's text).
     */
    public Field integerChoices(ChoiceSet set) {
        open();
        if (kind != Kind.INTEGER) {
            throw new IllegalStateException(name + ": only an integer field takes integer choices");
        }
        choices = set;
        return this;
    }

    /** {@link #filtersAs(Kind)} for a choice field: values outside the set are a 400, as NetBox's. */
    public Field filtersAs(ChoiceSet choiceSet) {
        choices = choiceSet;
        return filtersAs(Kind.CHOICE);
    }

    /**
     * The field holds NetBox object types by name ("dcim.site"; a STRING column, a STRING_LIST or
     * a generic relation's type column): NetBox's filters also take object-type ids
     * ({@code object_type_id} for {@code object_types}, {@code changed_object_type_id}).
     */
    public Field objectTypeIds() {
        open();
        objectTypeIds = true;
        return this;
    }

    /**
     * Filters this generic relation gives each model it may point at, built per target content
     * type (NetBox's GenericRelation on the target, e.g. a site's {@code contact} filter through
     * its contact assignments); the registry adds them to every declared target.
     */
    public Field targetFilters(java.util.function.Function<String, java.util.Collection<ExtraFilter>> filters) {
        open();
        targetFilters = filters;
        return this;
    }

    /** The value must match {@code regex} (full match), else {@code message}. */
    public Field pattern(String regex, String message) {
        open();
        pattern = java.util.regex.Pattern.compile(regex);
        patternMessage = message;
        return this;
    }

    // ----- read by the engine -----
    public String column() {
        return column;
    }

    public boolean isRequired() {
        return required;
    }

    public boolean isReadOnly() {
        return readOnly;
    }

    public boolean isWriteOnly() {
        return writeOnly;
    }

    public boolean isSecret() {
        return secret;
    }

    /** Whether the value is redacted (left out) wherever it would leave the API's own responses; see {@link #sensitive()}. */
    public boolean isSensitive() {
        return sensitive;
    }

    public java.util.function.UnaryOperator<Object> writeTransform() {
        return writeTransform;
    }

    public boolean isNullable() {
        return nullable;
    }

    public boolean isUnique() {
        return unique;
    }

    public boolean isFilterable() {
        return filterable;
    }

    public boolean isOrderable() {
        return orderable;
    }

    public Integer maxLength() {
        return maxLength;
    }

    public BigDecimal minValue() {
        return minValue;
    }

    public BigDecimal maxValue() {
        return maxValue;
    }

    public JsonNode defaultValue() {
        return defaultValue;
    }

    public ChoiceSet choices() {
        return choices;
    }
    /** Content type of the referenced model for FK and M2M fields. */
    public String target() {
        return target;
    }

    public OnDelete onDelete() {
        return onDelete;
    }

    public List<String> clearedWith() {
        return clearedWith;
    }

    public String joinTable() {
        return joinTable;
    }

    public String joinOwnColumn() {
        return joinOwnColumn;
    }

    public String joinTargetColumn() {
        return joinTargetColumn;
    }

    public String countTable() {
        return countTable;
    }

    public String countColumn() {
        return countColumn;
    }

    public NestedCount nestedCount() {
        return nestedCount;
    }

    public Function<Row, Object> computed() {
        return computed;
    }

    public List<String> writeAliases() {
        return writeAliases;
    }

    public List<String> genericTypes() {
        return genericTypes;
    }

    public String genericTypeColumn() {
        return genericTypeColumn;
    }

    public String genericIdColumn() {
        return genericIdColumn;
    }

    public String helpText() {
        return helpText;
    }

    public List<String> nestedFields() {
        return nestedFields;
    }

    public String countWhere() {
        return countWhere;
    }
    /** The owner's column holding this COUNT, or null when it is counted at read time. */
    public String counterColumn() {
        return counterColumn;
    }

    public BatchLoader loader() {
        return loader;
    }

    public boolean isTagSlugs() {
        return tagSlugs;
    }
    /** The declared value kind of a computed field, or null when not declared. */
    public Kind renders() {
        return renders;
    }
    /** The choices a computed CHOICE renders, see {@link #rendersChoice}. */
    public ChoiceSet renderedChoices() {
        return renderedChoices;
    }

    public java.util.regex.Pattern pattern() {
        return pattern;
    }
    /** The kind a notBuilt field filters as (see {@link #filtersAs}), or null when it is no filter. */
    public Kind unsetFilterKind() {
        return unsetFilterKind;
    }

    public boolean hasObjectTypeIds() {
        return objectTypeIds;
    }
    /** See {@link #targetFilters}: the filters for one target content type, none when not declared. */
    public java.util.Collection<ExtraFilter> targetFilters(String contentType) {
        return targetFilters == null ? List.of() : targetFilters.apply(contentType);
    }

    /** The unset value of a notBuilt field as a typed SQL literal, the operand of its filters. */
    public String unsetSql() {
        String type = unsetFilterKind.literalType();
        if (unsetValue == null) {
            return "null::" + type;
        }
        if (unsetValue instanceof Number || unsetValue instanceof Boolean) {
            return unsetValue + "::" + type;
        }
        return "'" + unsetValue.toString().replace("'", "''") + "'::" + type;
    }

    public String patternMessage() {
        return patternMessage;
    }

    public ImageNaming imageNaming() {
        return imageNaming;
    }

    public String imageHeightColumn() {
        return imageHeightColumn;
    }

    public String imageWidthColumn() {
        return imageWidthColumn;
    }

    public String imageBytesColumn() {
        return imageBytesColumn;
    }

    public boolean isWritable() {
        return !readOnly && !kind.isDerived();
    }

    /** True when the field lives in a column of the model's own table. */
    public boolean isColumn() {
        return column != null;
    }

    public String label() {
        if (label != null) {
            return label;
        }
        String base = name.replace('_', ' ');
        if (base.equals("id")) {
            return "ID";
        }
        return Character.toUpperCase(base.charAt(0)) + base.substring(1).toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return name + ":" + kind;
    }
}
