package org.sourceoftruth.records.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The declaration of one API model: where it lives (app, path, table), its fields in output
 * order, its brief set, default ordering, free-text search columns, uniqueness rules and
 * extra filters. Everything the generic engine needs; nothing model-specific lives elsewhere.
 */
public final class Model {
    private final String app;
    private final String path;
    private final String contentType;
    private final String table;
    private final String verboseName;
    private final Map<String, Field> fields = new LinkedHashMap<>();
    private final Set<String> brief = new LinkedHashSet<>();
    private final List<String> ordering = new ArrayList<>();
    private final List<String> search = new ArrayList<>();
    private final List<UniqueRule> uniqueRules = new ArrayList<>();
    private final Map<String, ExtraFilter> extraFilters = new LinkedHashMap<>();
    private final Map<String, RelationFilter> relationFilters = new LinkedHashMap<>();
    private List<String> placementHops = List.of("site", "device", "virtual_machine");
    private final Map<String, ChildFilter> childFilters = new LinkedHashMap<>();
    private final List<Validator> validators = new ArrayList<>();
    private final List<DbCheck> dbChecks = new ArrayList<>();
    private final List<WriteHook> writeHooks = new ArrayList<>();
    private java.util.function.Predicate<Row> secretsReadable = r -> false;
    private java.util.function.Supplier<ExtraFilter.Sql> secretsFilterScope = () -> ExtraFilter.Sql.of("false");
    private Function<Row, String> display = r -> r.str("name");
    private String treeParent;
    private boolean readOnlyApi;
    private Boolean eventRules;
    private String writtenWith;
    private boolean displayUrl = true;
    private final Map<String, String> extraSelects = new LinkedHashMap<>();
    /** {@link #selectFrom()} as built when the registry was complete; null before. */
    private volatile String sealedSelect;
    /** Set by {@link #freeze}: the declaration is complete and no setter applies any more. */
    private boolean frozen;

    private final List<String> aliasPaths = new ArrayList<>();
    private String apiName;
    private boolean writableRequest;
    private Instantiation instantiation;
    private InstantiatedRows instantiatedRows;
    private String componentTypeField;
    private ComponentNames componentNames;
    private boolean componentOptions;

    private Model(String app, String path, String contentType, String table, String verboseName) {
        this.app = app;
        this.path = path;
        this.contentType = contentType;
        this.table = table;
        this.verboseName = verboseName;
    }

    /**
     * Starts a declaration whose content type and table NetBox derives from the model's name:
     * {@code <app>.<name>} and {@code <app>_<name>}, the name being the verbose name without
     * spaces or hyphens, in lower case ({@code "virtual machine type"} →
     * {@code virtualization.virtualmachinetype}, table {@code virtualization_virtualmachinetype}).
     */
    public static Model of(String app, String path, String verboseName) {
        String name = modelName(verboseName);
        return of(app, path, app + "." + name, app + "_" + name, verboseName);
    }

    /** NetBox's model name of a verbose name: {@code "MAC address"} → {@code macaddress}. */
    public static String modelName(String verboseName) {
        return verboseName.replace(" ", "").replace("-", "").toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Starts a declaration whose content type or table is not the one {@link #of(String, String,
     * String)} derives. Every model gets id, url, display_url and display first, as
     * NetBox's serializers do; declare the rest in output order.
     */
    public static Model of(String app, String path, String contentType, String table, String verboseName) {
        Model m = new Model(app, path, contentType, table, verboseName);
        m.field(Fields.integer("id").readOnly());
        m.field(Fields.computed("url", r -> null).renders(Kind.STRING));
        m.field(Fields.computed("display_url", r -> null).renders(Kind.STRING));
        m.field(Fields.computed("display", r -> null).renders(Kind.STRING));
        m.brief.addAll(List.of("id", "url", "display"));
        return m;
    }

    public Model field(Field f) {
        open();
        if (fields.putIfAbsent(f.name, f) != null) {
            throw new IllegalStateException(contentType + ": field declared twice: " + f.name);
        }
        return this;
    }

    /**
     * Adds {@code f} just before the first of {@code anchors} the model has (at the end when it
     * has none): where a field that a {@link ModelMixin} adds to models declared elsewhere goes
     * in their output order.
     */
    public Model fieldBefore(Field f, String... anchors) {
        open();
        String anchor = null;
        for (String a : anchors) {
            if (fields.containsKey(a)) {
                anchor = a;
                break;
            }
        }
        field(f);
        if (anchor != null) {
            Map<String, Field> reordered = new LinkedHashMap<>();
            for (Map.Entry<String, Field> e : fields.entrySet()) {
                if (e.getKey().equals(anchor)) {
                    reordered.put(f.name, f);
                }
                if (!e.getKey().equals(f.name)) {
                    reordered.put(e.getKey(), e.getValue());
                }
            }
            fields.clear();
            fields.putAll(reordered);
        }
        return this;
    }

    public Model fields(Field... fs) {
        open();
        for (Field f : fs) {
            field(f);
        }
        return this;
    }

    /** Tags, custom fields, created and last_updated: NetBox's "T" block. */
    public Model standardTail() {
        return fields(
                Fields.tags(),
                Fields.customFields(),
                Fields.datetime("created").readOnly().nullable(),
                Fields.datetime("last_updated").readOnly().nullable());
    }

    /** created and last_updated only (models without tags/custom fields). */
    public Model timestamps() {
        return fields(
                Fields.datetime("created").readOnly().nullable(),
                Fields.datetime("last_updated").readOnly().nullable());
    }

    public Model brief(String... names) {
        open();
        brief.addAll(List.of(names));
        return this;
    }

    /** The brief set is exactly id, url, display and these (where a shared shape declared more). */
    public Model briefExactly(String... names) {
        brief.clear();
        brief.addAll(List.of("id", "url", "display"));
        return brief(names);
    }

    /** Default ordering as SQL terms over alias {@code t}; {@code t.id} is always appended. */
    public Model ordering(String... terms) {
        open();
        ordering.addAll(List.of(terms));
        return this;
    }

    public Model search(String... columns) {
        open();
        search.addAll(List.of(columns));
        return this;
    }

    public Model unique(UniqueRule rule) {
        open();
        uniqueRules.add(rule);
        return this;
    }

    public Model filter(ExtraFilter filter) {
        open();
        extraFilters.put(filter.name(), filter);
        return this;
    }

    public Model filters(java.util.Collection<ExtraFilter> filters) {
        open();
        filters.forEach(this::filter);
        return this;
    }

    /**
     * A filter on the related object reached through {@code path} (field names joined by dots,
     * e.g. {@code "device_type.manufacturer"}), by its {@code key}: see {@link RelationFilter}.
     */
    public Model relationFilter(String name, String path, String key) {
        open();
        relationFilters.put(name, new RelationFilter(name, List.of(path.split("\\.")), key));
        return this;
    }

    /** The related model's filter {@code name}, matched by any of the objects pointing here: see {@link ChildFilter}. */
    /**
     * The relations placement filters ({@code region}, {@code site_id}, {@code location}, ...)
     * follow to reach the object's site, in order, where it has no site, device or virtual
     * machine of its own: a power feed's site is its power panel's.
     */
    public Model placedThrough(String... relations) {
        open();
        placementHops = List.of(relations);
        return this;
    }

    /** See {@link #placedThrough}: a site, device or virtual machine unless declared. */
    public List<String> placementHops() {
        return placementHops;
    }

    public Model childFilter(String name, String childType, String childFk) {
        open();
        childFilters.put(name, new ChildFilter(name, childType, childFk));
        return this;
    }

    public Model validator(Validator v) {
        open();
        validators.add(v);
        return this;
    }

    /**
     * A rule that queries other rows, checked after field and uniqueness checks. With columns, it
     * depends only on these columns of its own row and an update that changes none of them skips
     * it (see {@link DbCheck#dependsOn()}); without, it runs on every write.
     */
    public Model check(DbValidator v, String... dependsOn) {
        open();
        dbChecks.add(new DbCheck(v, Set.of(dependsOn)));
        return this;
    }

    /**
     * A computed column added to every SELECT of this model (alias {@code t}), readable by
     * computed fields as {@code row.get(alias)}; e.g. a tree node's depth.
     */
    public Model select(String alias, String sqlExpression) {
        open();
        extraSelects.put(alias, sqlExpression);
        return this;
    }

    /** Code run around every create and update of this model (see {@link WriteHook}). */
    public Model hook(WriteHook hook) {
        open();
        writeHooks.add(hook);
        return this;
    }

    /**
     * Which stored objects have their {@link Field#secret() secret} fields rendered on reads
     * (asked per object on every read, so it may follow a runtime setting or the caller).
     * Default: none.
     */
    public Model secretsReadable(java.util.function.Predicate<Row> readable) {
        open();
        secretsReadable = readable;
        return this;
    }

    /**
     * The objects (SQL over alias {@code t}, asked per request) whose secret fields lookups such
     * as {@code key__isw} may match: the same objects as {@link #secretsReadable}, so that no
     * lookup tells a caller more about a secret than reading it would. Default: none.
     */
    public Model secretsFilterScope(java.util.function.Supplier<ExtraFilter.Sql> scope) {
        open();
        secretsFilterScope = scope;
        return this;
    }

    public Model display(Function<Row, String> fn) {
        open();
        display = fn;
        return this;
    }

    /** Marks a self-referencing tree: {@code parentField} is the FK to the parent node. */
    public Model tree(String parentField) {
        open();
        treeParent = parentField;
        return this;
    }

    /** Only GET is served (e.g. object changes). */
    public Model readOnlyApi() {
        open();
        readOnlyApi = true;
        return this;
    }

    /**
     * Whether event rules may name this model: NetBox's event_rules feature, which its
     * change-logged models (ChangeLoggedModel, NetBoxModel) and scripts have, and its users,
     * groups, permissions, tokens, bookmarks, notifications and subscriptions do not. An event
     * rule naming another type is refused ("Invalid content type"). Default: the models the engine
     * changes ({@link #isChangedByEngine}).
     */
    public Model eventRules(boolean allowed) {
        open();
        eventRules = allowed;
        return this;
    }

    /**
     * Served read-only (writes answer 405), yet written by the engine along with the writes of
     * the model {@code ownerContentType} (NetBox 4.5's cable terminations, which only their cable
     * writes): its rows are created, changed and deleted through the engine with their change
     * records and events, and deletes cascade to them.
     */
    public Model writtenWith(String ownerContentType) {
        open();
        readOnlyApi = true;
        writtenWith = ownerContentType;
        return this;
    }

    /** The model whose writes write this one's rows (see {@link #writtenWith}), or null. */
    public String writtenWith() {
        return writtenWith;
    }

    /** Whether the engine changes this model's rows, with change records (every model the API writes, and {@link #writtenWith}). */
    public boolean isChangedByEngine() {
        return !readOnlyApi || writtenWith != null;
    }

    /** Also serve this model at {@code /api/<app>/<path>/} (e.g. NetBox 3's extras/object-changes). */
    public Model alsoAt(String app, String path) {
        open();
        aliasPaths.add(app + "/" + path);
        return this;
    }

    public List<String> aliasPaths() {
        return aliasPaths;
    }

    /**
     * The name NetBox's serializer gives this model in the OpenAPI document ({@code VMInterface}
     * for virtualization's interfaces), when it is not the verbose name in title case without
     * spaces ({@code "IP address"} → {@code IPAddress}).
     */
    public Model apiName(String name) {
        open();
        apiName = name;
        return this;
    }

    /** Base of the model's OpenAPI component names: {@code Site} → {@code BriefSite}, {@code PaginatedSiteList}. */
    public String apiName() {
        if (apiName != null) {
            return apiName;
        }
        StringBuilder sb = new StringBuilder();
        for (String word : verboseName.split(" ")) {
            sb.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return sb.toString();
    }

    /**
     * NetBox names this model's request body {@code Writable<X>Request} although its fields read
     * and write alike here (a virtual chassis's master is written as a plain id).
     */
    public Model writableRequest() {
        open();
        writableRequest = true;
        return this;
    }

    public boolean hasWritableRequest() {
        return writableRequest;
    }

    /**
     * This model is a component template: each template makes a {@code componentType} object
     * with these columns copied (same names) when an object is created from the template's type
     * (see {@link Instantiation}).
     */
    public Model instantiates(String componentType, String... columns) {
        open();
        instantiation = Instantiation.of(componentType, columns);
        return this;
    }

    /** {@link #instantiates(String, String...)} with columns named differently: component column → template column. */
    public Model instantiates(String componentType, java.util.Map<String, String> columns) {
        open();
        instantiation = new Instantiation(componentType, java.util.Map.copyOf(columns));
        return this;
    }

    /** Rows the components this template model makes take along (see {@link InstantiatedRows}). */
    public Model instantiatesRows(InstantiatedRows rows) {
        open();
        instantiatedRows = rows;
        return this;
    }

    public InstantiatedRows instantiatedRows() {
        return instantiatedRows;
    }

    /**
     * Creating an object of this model creates its components from the templates of the type
     * its {@code typeField} names (a device's device type, a module's module type), in the same
     * transaction, each with its change record. {@code options}: the request may send NetBox's
     * {@code replicate_components} (default true) and {@code adopt_components} (default false).
     */
    public Model componentsFrom(String typeField, ComponentNames names, boolean options) {
        open();
        componentTypeField = typeField;
        componentNames = names;
        componentOptions = options;
        return this;
    }

    public Instantiation instantiation() {
        return instantiation;
    }
    /** The field naming the type whose templates make this model's components, or null. */
    public String componentTypeField() {
        return componentTypeField;
    }

    public ComponentNames componentNames() {
        return componentNames;
    }
    /** Whether a create may send replicate_components and adopt_components. */
    public boolean hasComponentOptions() {
        return componentOptions;
    }

    public Model noDisplayUrl() {
        open();
        fields.remove("display_url");
        displayUrl = false;
        return this;
    }

    // ----- read by the engine -----
    /** Whether the model has an uploaded-image field, so takes multipart bodies. */
    public boolean hasImageFields() {
        for (Field f : fields()) {
            if (f.kind == Kind.IMAGE) {
                return true;
            }
        }
        return false;
    }

    public String app() {
        return app;
    }

    public String path() {
        return path;
    }

    public String contentType() {
        return contentType;
    }

    public String table() {
        return table;
    }

    public String verboseName() {
        return verboseName;
    }

    public Map<String, Field> fieldMap() {
        return Collections.unmodifiableMap(fields);
    }

    public Iterable<Field> fields() {
        return fields.values();
    }

    public Field field(String name) {
        return fields.get(name);
    }

    public Set<String> briefNames() {
        return brief;
    }

    public List<String> ordering() {
        return ordering;
    }

    public List<String> searchColumns() {
        return search;
    }

    /**
     * Every uniqueness rule of the model: its unique fields' first (in field order, reported on
     * the field), then its rules over several columns (reported on {@code __all__}), in the order
     * NetBox's serializers check them.
     */
    public List<UniqueRule> uniqueRules() {
        List<UniqueRule> all = new ArrayList<>();
        for (Field f : fields.values()) {
            if (f.isUnique() && f.isColumn()) {
                all.add(UniqueRule.ofField(this, f));
            }
        }
        all.addAll(uniqueRules);
        return all;
    }

    public Map<String, ExtraFilter> extraFilters() {
        return extraFilters;
    }

    public Map<String, RelationFilter> relationFilters() {
        return relationFilters;
    }

    public Map<String, ChildFilter> childFilters() {
        return childFilters;
    }

    public List<Validator> validators() {
        return validators;
    }

    public List<DbCheck> dbChecks() {
        return dbChecks;
    }

    public List<WriteHook> writeHooks() {
        return writeHooks;
    }

    public boolean secretsReadable(Row row) {
        return secretsReadable.test(row);
    }

    public java.util.function.Supplier<ExtraFilter.Sql> secretsFilterScope() {
        return secretsFilterScope;
    }

    public String display(Row row) {
        return display.apply(row);
    }

    public String treeParent() {
        return treeParent;
    }

    public boolean isReadOnlyApi() {
        return readOnlyApi;
    }

    /** See {@link #eventRules(boolean)}. */
    public boolean hasEventRules() {
        return eventRules != null ? eventRules : isChangedByEngine();
    }

    public boolean hasDisplayUrl() {
        return displayUrl;
    }

    public Map<String, String> extraSelects() {
        return extraSelects;
    }

    /**
     * {@code select t.*, <extra selects> from <table> t}; a field read through an expression
     * ({@link Field#readAs}) repeats its column's name after {@code t.*}, and the later value is
     * the one a row keeps.
     */
    public String selectFrom() {
        String sealed = sealedSelect;
        return sealed != null ? sealed : buildSelectFrom();
    }

    /** Fixes {@link #selectFrom()} once the registry holds every declaration (it was rebuilt per read). */
    /**
     * Ends the declaration: the registry calls it once every model is declared and every mixin
     * applied. A setter of the model or of one of its fields called afterwards throws, so what
     * the engine serves is what the declarations say, not what a later call made of them.
     */
    void freeze() {
        frozen = true;
        fields.values().forEach(Field::freeze);
    }

    boolean isFrozen() {
        return frozen;
    }

    private void open() {
        if (frozen) {
            throw new IllegalStateException(contentType + " is registered: its declaration can no longer change");
        }
    }

    void sealSelect() {
        sealedSelect = buildSelectFrom();
    }

    private String buildSelectFrom() {
        StringBuilder sb = new StringBuilder("select t.*");
        extraSelects.forEach(
                (alias, expr) -> sb.append(", (").append(expr).append(") as ").append(alias));
        fields.values().stream()
                .filter(f -> f.readExpression() != null)
                .forEach(f -> sb.append(", (")
                        .append(f.readExpression())
                        .append(") as ")
                        .append(f.column()));
        return sb.append(" from ").append(table).append(" t").toString();
    }

    public boolean hasTags() {
        return fields.containsKey("tags");
    }

    public boolean hasCustomFields() {
        return fields.containsKey("custom_fields");
    }
    /** Whether {@code column} is a {@link Field#requestOnly() request-only} value rather than a stored column. */
    public boolean isRequestOnly(String column) {
        Field f = fields.get(column);
        return f != null && f.isRequestOnly();
    }

    public boolean hasColumn(String column) {
        return fields.values().stream().anyMatch(f -> column.equals(f.column()));
    }

    /** "IP address" → "IP Address List" as DRF's metadata names it. */
    public String titleName() {
        StringBuilder sb = new StringBuilder();
        for (String word : verboseName.split(" ")) {
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            sb.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return sb.toString();
    }
}
