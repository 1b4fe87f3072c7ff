package org.sourceoftruth.records.engine.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.customfields.CustomFields;
import org.sourceoftruth.records.fieldtype.FieldTypes;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;

/**
 * Writes rows as NetBox's JSON representations (full, brief, nested) from the model
 * declarations. Related data (nested parents, many-to-many lists, tags, counts, custom
 * fields) is loaded in one batched query per field for the whole page ({@link RelatedObjects}),
 * so the statement count of a page does not grow with its size.
 */
@ApplicationScoped
public class Renderer {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Inject
    CustomFields customFields;

    @Inject
    RelatedObjects relatedObjects;

    /** Which representation to write. */
    public enum Mode {
        FULL,
        BRIEF,
        NESTED
    }

    /**
     * @param baseUrl  scheme://host[:port] for absolute URLs, or "" for relative ones (webhooks)
     * @param include  top-level field names to keep (?fields=), or null
     * @param omit     top-level field names to drop (?omit= and ?exclude=config_context)
     * @param revealSecrets render {@link Field#secret() secret} fields even where the model
     *                      does not make them readable
     * @param redactSensitive leave out {@link Field#isSensitive() sensitive} fields, for what
     *                        leaves the API's own responses (exports, template contexts), nested
     *                        objects included
     */
    public record Options(
            String baseUrl,
            Mode mode,
            Set<String> include,
            Set<String> omit,
            boolean revealSecrets,
            boolean redactSensitive) {
        public Options(String baseUrl, Mode mode, Set<String> include, Set<String> omit) {
            this(baseUrl, mode, include, omit, false, false);
        }

        public static Options full(String baseUrl) {
            return new Options(baseUrl, Mode.FULL, null, Set.of());
        }

        /** The same options, rendering secret fields too (the response to the creating request). */
        public Options revealingSecrets() {
            return new Options(baseUrl, mode, include, omit, true, redactSensitive);
        }

        /** The same options, without sensitive fields: for exports and template contexts. */
        public Options redactingSensitive() {
            return new Options(baseUrl, mode, include, omit, false, true);
        }

        /** Nested objects' options under these: the target's brief set, or these fields. */
        public Options nested(Set<String> fields) {
            return new Options(baseUrl, Mode.NESTED, fields, Set.of(), false, redactSensitive);
        }
    }

    public List<ObjectNode> render(Db db, Model model, List<Row> rows, Options opts) {
        return render(db, model, rows, opts, Map.of(), null);
    }

    /**
     * As {@link #render(Db, Model, List, Options)} for a read: nested objects come from and go to
     * the read's {@link NestedObjectCache} view (the caller ends the read).
     */
    public List<ObjectNode> render(Db db, Model model, List<Row> rows, Options opts, NestedObjectCache.Read cache) {
        return render(db, model, rows, opts, Map.of(), cache);
    }

    /** Whether rows rendered with these options show nested objects or tags, which a {@link NestedObjectCache} can hold. */
    public boolean showsNestedObjects(Model model, Options opts) {
        for (Field f : selectFields(model, opts)) {
            if (f.loader() != null
                    || f.kind == Kind.M2M
                    || f.kind == Kind.GENERIC_FK
                    || f.kind == Kind.TAGS
                    || (f.kind == Kind.FK && !f.isRenderedAsId())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether rows rendered with these options may show the values of these columns: a field
     * stored in one of them, or one computed from the row (a loader, a computed value other than
     * the url and display text), which may read any column.
     */
    public boolean shows(Model model, Options opts, Set<String> columns) {
        if (columns.isEmpty()) {
            return false;
        }
        for (Field f : selectFields(model, opts)) {
            if (f.kind == Kind.COMPUTED) {
                if (f.loader() != null || !DERIVED_FROM_NAMES.contains(f.name)) {
                    return true;
                }
                continue;
            }
            if (f.loader() != null || (f.column() != null && columns.contains(f.column()))) {
                return true;
            }
        }
        return false;
    }

    /** Computed fields that show only an object's id and name-like columns, never a large value. */
    private static final Set<String> DERIVED_FROM_NAMES = Set.of("url", "display_url", "display");

    /**
     * As {@link #render(Db, Model, List, Options, NestedObjectCache.Read)}, with the target rows of some foreign keys
     * already read (by field name): {@link RelatedObjects} reads a nested object's own parents in
     * the round trip that reads the nested object.
     */
    List<ObjectNode> render(
            Db db,
            Model model,
            List<Row> rows,
            Options opts,
            Map<String, List<Row>> preloaded,
            NestedObjectCache.Read cache) {
        List<Field> out = selectFields(model, opts);
        Map<String, Map<Object, JsonNode>> related =
                relatedObjects.prefetch(db, model, rows, out, opts, preloaded, cache);
        int capacity = capacityFor(out);
        List<ObjectNode> nodes = new ArrayList<>(rows.size());
        for (Row row : rows) {
            nodes.add(renderRow(db, model, row, out, capacity, related, opts));
        }
        return nodes;
    }

    public ObjectNode renderOne(Db db, Model model, Row row, Options opts) {
        return render(db, model, List.of(row), opts).get(0);
    }

    List<Field> selectFields(Model model, Options opts) {
        List<Field> out = new ArrayList<>();
        boolean briefLike = opts.mode() != Mode.FULL;
        for (Field f : model.fields()) {
            if (f.isWriteOnly()) {
                continue;
            }
            if (opts.include() != null) {
                if (!opts.include().contains(f.name)) {
                    continue;
                }
            } else if (briefLike && !model.briefNames().contains(f.name) && !pairOnly(model, f)) {
                continue;
            }
            if (opts.omit().contains(f.name)) {
                continue;
            }
            if (opts.mode() == Mode.NESTED && f.kind == Kind.COUNT && f.nestedCount() == Field.NestedCount.DROP) {
                continue;
            }
            out.add(f);
        }
        return out;
    }

    /**
     * A generic relation whose brief form has its type and id columns but not the object (a cable
     * termination's termination_type and termination_id, NetBox's brief_fields).
     */
    private static boolean pairOnly(Model model, Field f) {
        return f.kind == Kind.GENERIC_FK
                && !model.briefNames().contains(f.name)
                && model.briefNames().contains(f.genericTypeColumn());
    }

    private ObjectNode renderRow(
            Db db,
            Model model,
            Row row,
            List<Field> out,
            int capacity,
            Map<String, Map<Object, JsonNode>> related,
            Options opts) {
        ObjectNode node = new ObjectNode(NODES, new LinkedHashMap<>(capacity));
        long id = row.id();
        for (Field f : out) {
            if (f.isSensitive() && opts.redactSensitive()) {
                continue;
            }
            if (f.isSecret() && !opts.revealSecrets() && !model.secretsReadable(row)) {
                node.putNull(f.name); // hidden, as NetBox 4.6 shows a token's key and token on reads
                continue;
            }
            if (f.isSecret() && opts.revealSecrets() && f.revealedAs() != null) {
                Object revealed = f.revealedAs().apply(row);
                if (revealed != null) {
                    node.set(f.name, value(f, revealed));
                    continue;
                }
            }
            if (f.loader() != null && f.kind != Kind.COMPUTED) {
                node.set(f.name, related.get(f.name).getOrDefault(id, NODES.nullNode()));
                continue;
            }
            switch (f.kind) {
                case COMPUTED -> {
                    switch (f.name) {
                        case "url" -> node.put("url", url(opts.baseUrl(), model, id));
                        case "display_url" -> node.put("display_url", displayUrl(opts.baseUrl(), model, id));
                        case "display" -> node.put("display", model.display(row));
                        default -> {
                            if (f.loader() != null) {
                                node.set(f.name, related.get(f.name).getOrDefault(id, NODES.nullNode()));
                            } else {
                                // a computed nested object (e.g. a change's user) names its url
                                // relative to the API root; the request's base makes it absolute
                                JsonNode value =
                                        Json.MAPPER.valueToTree(f.computed().apply(row));
                                AbsoluteUrls.absolutize(value, opts.baseUrl());
                                node.set(f.name, value);
                            }
                        }
                    }
                }
                case FK -> {
                    Long target = row.longValue(f.column());
                    if (f.isRenderedAsId()) {
                        node.set(f.name, target == null ? NODES.nullNode() : NODES.numberNode(target));
                        continue;
                    }
                    node.set(
                            f.name,
                            target == null
                                    ? NODES.nullNode()
                                    : related.get(f.name).getOrDefault(target, NODES.nullNode()));
                }
                case M2M, TAGS -> node.set(f.name, related.get(f.name).getOrDefault(id, NODES.arrayNode()));
                case COUNT -> {
                    boolean zeroWhenNested = opts.mode() == Mode.NESTED && f.nestedCount() == Field.NestedCount.ZERO;
                    if (f.counterColumn() != null && !zeroWhenNested) {
                        Long cached = row.longValue(f.counterColumn());
                        node.set(f.name, NODES.numberNode(cached == null ? 0 : cached));
                        continue;
                    }
                    Map<Object, JsonNode> counts = related.get(f.name);
                    node.set(
                            f.name,
                            counts == null ? NODES.numberNode(0) : counts.getOrDefault(id, NODES.numberNode(0)));
                }
                case GENERIC_FK -> {
                    String type = row.str(f.genericTypeColumn());
                    Long target = row.longValue(f.genericIdColumn());
                    JsonNode value = type == null || target == null
                            ? NODES.nullNode()
                            : related.get(f.name).getOrDefault(type + ":" + target, NODES.nullNode());
                    // NetBox shows the pair and the resolved object side by side: x_type, x_id, x.
                    node.set(f.genericTypeColumn(), type == null ? NODES.nullNode() : NODES.textNode(type));
                    node.set(f.genericIdColumn(), target == null ? NODES.nullNode() : NODES.numberNode(target));
                    if (opts.mode() == Mode.FULL || opts.include() != null || !pairOnly(model, f)) {
                        node.set(f.name, value);
                    }
                }
                case CUSTOM_FIELDS -> node.set(f.name, customFields.render(db, model, (JsonNode) row.get(f.column())));
                case IMAGE -> node.set(f.name, mediaUrl(opts.baseUrl(), row.str(f.column())));
                default -> node.set(f.name, value(f, row.get(f.column())));
            }
        }
        return node;
    }

    /**
     * The initial capacity of a row's member map: every chosen field, and the type and id members
     * a generic relation adds beside it, without a resize. A full device (~55 members) grew the
     * default map three times, each a new table and a rehash, for every row of every page and bulk
     * write.
     */
    private static int capacityFor(List<Field> out) {
        int members = out.size();
        for (Field f : out) {
            if (f.kind == Kind.GENERIC_FK) {
                members += 2;
            }
        }
        return members * 4 / 3 + 1;
    }

    /** A column value as JSON, as its field's kind renders it. */
    public static JsonNode value(Field f, Object v) {
        return v == null ? NODES.nullNode() : FieldTypes.of(f).render(f, v);
    }

    /** A stored file's URL (served by api.MediaResource); null when there is none, as DRF's FileField. */
    public static JsonNode mediaUrl(String baseUrl, String name) {
        return name == null || name.isEmpty() ? NODES.nullNode() : NODES.textNode(baseUrl + "/media/" + name);
    }

    public static String url(String baseUrl, Model m, long id) {
        return baseUrl + "/api/" + m.app() + "/" + m.path() + "/" + id + "/";
    }

    public static String displayUrl(String baseUrl, Model m, long id) {
        return baseUrl + "/" + m.app() + "/" + m.path() + "/" + id + "/";
    }
}
