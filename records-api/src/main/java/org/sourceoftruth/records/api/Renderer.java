package org.sourceoftruth.records.api;

import org.sourceoftruth.records.db.Db;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.kind.FieldTypes;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Writes rows as NetBox's JSON representations (full, brief, nested) from the model
 * declarations. Related data (nested parents, many-to-many lists, tags, counts, custom
 * fields) is loaded in one batched query per field for the whole page, so the statement
 * count of a page does not grow with its size.
 */
@ApplicationScoped
public class Renderer {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Inject
    ModelRegistry registry;
    @Inject
    CustomFields customFields;

    /** Which representation to write. */
    public enum Mode { FULL, BRIEF, NESTED }

    /**
     * @param baseUrl  scheme://host[:port] for absolute URLs, or "" for relative ones (webhooks)
     * @param include  top-level field names to keep (?fields=), or null
     * @param omit     top-level field names to drop (?omit= and ?exclude=config_context)
     * @param revealSecrets render {@link Field#secret() secret} fields even where the model
     *                      does not make them readable
     */
    public record Options(String baseUrl, Mode mode, Set<String> include, Set<String> omit, boolean revealSecrets) {
        public Options(String baseUrl, Mode mode, Set<String> include, Set<String> omit) {
            this(baseUrl, mode, include, omit, false);
        }

        public static Options full(String baseUrl) {
            return new Options(baseUrl, Mode.FULL, null, Set.of());
        }

        /** The same options, rendering secret fields too (the response to the creating request). */
        public Options revealingSecrets() {
            return new Options(baseUrl, mode, include, omit, true);
        }
    }

    public List<ObjectNode> render(Db db, Model model, List<Row> rows, Options opts) {
        List<Field> out = selectFields(model, opts);
        Map<String, Map<Object, JsonNode>> related = prefetch(db, model, rows, out, opts);
        List<ObjectNode> nodes = new ArrayList<>(rows.size());
        for (Row row : rows) {
            nodes.add(renderRow(db, model, row, out, related, opts));
        }
        return nodes;
    }

    public ObjectNode renderOne(Db db, Model model, Row row, Options opts) {
        return render(db, model, List.of(row), opts).get(0);
    }

    private List<Field> selectFields(Model model, Options opts) {
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
            } else if (briefLike && !model.briefNames().contains(f.name)) {
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

    /** Loads what the chosen fields need for all rows at once: one query per related field. */
    private Map<String, Map<Object, JsonNode>> prefetch(Db db, Model model, List<Row> rows, List<Field> out,
                                                        Options opts) {
        Map<String, Map<Object, JsonNode>> related = new HashMap<>();
        if (rows.isEmpty()) {
            return related;
        }
        List<Long> ids = rows.stream().map(Row::id).toList();
        Options nested = new Options(opts.baseUrl(), Mode.NESTED, null, Set.of());
        for (Field f : out) {
            switch (f.kind) {
                case FK -> {
                    Options fkNested = nestedOptions(f, opts, nested);
                    Set<Long> targets = new TreeSet<>();
                    for (Row r : rows) {
                        Long v = r.longValue(f.column());
                        if (v != null) {
                            targets.add(v);
                        }
                    }
                    related.put(f.name, loadNested(db, registry.require(f.target()), targets, fkNested));
                }
                case M2M -> related.put(f.name, loadM2m(db, f, ids, nestedOptions(f, opts, nested)));
                case TAGS -> related.put(f.name, f.isTagSlugs() ? loadTagSlugs(db, model, ids) : loadTags(db, model, ids, opts));
                case COUNT -> {
                    if (f.counterColumn() != null
                            || (opts.mode() == Mode.NESTED && f.nestedCount() == Field.NestedCount.ZERO)) {
                        continue;
                    }
                    Map<Object, JsonNode> counts = new HashMap<>();
                    String where = f.countWhere() == null ? "" : " and (" + f.countWhere() + ")";
                    for (Row r : db.query("select " + f.countColumn() + " as k, count(*) as n from " + f.countTable()
                            + " where " + f.countColumn() + " = any(?)" + where + " group by 1", new Db.SqlArray("bigint", ids))) {
                        counts.put(((Number) r.get("k")).longValue(), NODES.numberNode(((Number) r.get("n")).longValue()));
                    }
                    related.put(f.name, counts);
                }
                case GENERIC_FK -> related.put(f.name, loadGeneric(db, f, rows, nested));
                case COMPUTED -> {
                    if (f.loader() != null) {
                        Map<Object, JsonNode> values = new HashMap<>();
                        f.loader().load(db, rows).forEach((id, v) -> values.put(id, Json.MAPPER.valueToTree(v)));
                        related.put(f.name, values);
                    }
                }
                default -> {
                }
            }
        }
        return related;
    }

    /** The target's brief set, or the field's own nested field list when it declares one. */
    private static Options nestedOptions(Field f, Options opts, Options nested) {
        return f.nestedFields() == null ? nested
                : new Options(opts.baseUrl(), Mode.NESTED, Set.copyOf(f.nestedFields()), Set.of());
    }

    private Map<Object, JsonNode> loadNested(Db db, Model target, Collection<Long> ids, Options nested) {
        Map<Object, JsonNode> byId = new HashMap<>();
        if (ids.isEmpty()) {
            return byId;
        }
        List<Row> rows = db.query(target.selectFrom() + " where t.id = any(?)",
                new Db.SqlArray("bigint", ids));
        List<ObjectNode> nodes = render(db, target, rows, nested);
        for (int i = 0; i < rows.size(); i++) {
            byId.put(rows.get(i).id(), nodes.get(i));
        }
        return byId;
    }

    private Map<Object, JsonNode> loadM2m(Db db, Field f, List<Long> ids, Options nested) {
        List<Row> links = db.query("select " + f.joinOwnColumn() + " as own, " + f.joinTargetColumn() + " as target from "
                + f.joinTable() + " where " + f.joinOwnColumn() + " = any(?) order by 2", new Db.SqlArray("bigint", ids));
        Set<Long> targetIds = new LinkedHashSet<>();
        links.forEach(l -> targetIds.add(l.longValue("target")));
        Map<Object, JsonNode> targets = loadNested(db, registry.require(f.target()), targetIds, nested);
        Map<Object, JsonNode> byOwner = new HashMap<>();
        for (Row l : links) {
            ArrayNode arr = (ArrayNode) byOwner.computeIfAbsent(l.longValue("own"), k -> NODES.arrayNode());
            JsonNode t = targets.get(l.longValue("target"));
            if (t != null) {
                arr.add(t);
            }
        }
        return byOwner;
    }

    private Map<Object, JsonNode> loadTags(Db db, Model model, List<Long> ids, Options opts) {
        Model tagModel = registry.require("extras.tag");
        List<Row> rows = db.query("select ti.object_id as object_id, t.* from extras_taggeditem ti"
                + " join extras_tag t on t.id = ti.tag_id where ti.object_type = ? and ti.object_id = any(?)"
                + " order by t.weight, t.name", model.contentType(), new Db.SqlArray("bigint", ids));
        Map<Object, JsonNode> byObject = new HashMap<>();
        for (Row r : rows) {
            ObjectNode tag = NODES.objectNode();
            tag.put("id", r.id());
            tag.put("url", url(opts.baseUrl(), tagModel, r.id()));
            tag.put("display_url", displayUrl(opts.baseUrl(), tagModel, r.id()));
            tag.put("display", r.str("name"));
            tag.put("name", r.str("name"));
            tag.put("slug", r.str("slug"));
            tag.put("color", r.str("color"));
            ((ArrayNode) byObject.computeIfAbsent(r.longValue("object_id"), k -> NODES.arrayNode())).add(tag);
        }
        return byObject;
    }

    /** Tags as a plain list of slugs (config contexts), ordered by slug. */
    private Map<Object, JsonNode> loadTagSlugs(Db db, Model model, List<Long> ids) {
        Map<Object, JsonNode> byObject = new HashMap<>();
        for (Row r : db.query("select ti.object_id as object_id, t.slug from extras_taggeditem ti join extras_tag t"
                + " on t.id = ti.tag_id where ti.object_type = ? and ti.object_id = any(?) order by t.slug",
                model.contentType(), new Db.SqlArray("bigint", ids))) {
            ((ArrayNode) byObject.computeIfAbsent(r.longValue("object_id"), k -> NODES.arrayNode())).add(r.str("slug"));
        }
        return byObject;
    }

    private Map<Object, JsonNode> loadGeneric(Db db, Field f, List<Row> rows, Options nested) {
        Map<String, Set<Long>> idsByType = new HashMap<>();
        for (Row r : rows) {
            String type = r.str(f.genericTypeColumn());
            Long id = r.longValue(f.genericIdColumn());
            if (type != null && id != null) {
                idsByType.computeIfAbsent(type, k -> new TreeSet<>()).add(id);
            }
        }
        Map<Object, JsonNode> byKey = new HashMap<>();
        idsByType.forEach((type, ids) -> registry.byContentType(type).ifPresent(target ->
                loadNested(db, target, ids, nested).forEach((id, node) -> byKey.put(type + ":" + id, node))));
        return byKey;
    }

    private ObjectNode renderRow(Db db, Model model, Row row, List<Field> out, Map<String, Map<Object, JsonNode>> related,
                                 Options opts) {
        ObjectNode node = NODES.objectNode();
        long id = row.id();
        for (Field f : out) {
            if (f.isSecret() && !opts.revealSecrets() && !model.secretsReadable(row)) {
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
                                JsonNode value = Json.MAPPER.valueToTree(f.computed().apply(row));
                                ModelService.absolutize(value, opts.baseUrl());
                                node.set(f.name, value);
                            }
                        }
                    }
                }
                case FK -> {
                    Long target = row.longValue(f.column());
                    node.set(f.name, target == null ? NODES.nullNode() : related.get(f.name).getOrDefault(target, NODES.nullNode()));
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
                    node.set(f.name, counts == null ? NODES.numberNode(0) : counts.getOrDefault(id, NODES.numberNode(0)));
                }
                case GENERIC_FK -> {
                    String type = row.str(f.genericTypeColumn());
                    Long target = row.longValue(f.genericIdColumn());
                    JsonNode value = type == null || target == null ? NODES.nullNode()
                            : related.get(f.name).getOrDefault(type + ":" + target, NODES.nullNode());
                    // NetBox shows the pair and the resolved object side by side: x_type, x_id, x.
                    node.set(f.genericTypeColumn(), type == null ? NODES.nullNode() : NODES.textNode(type));
                    node.set(f.genericIdColumn(), target == null ? NODES.nullNode() : NODES.numberNode(target));
                    node.set(f.name, value);
                }
                case CUSTOM_FIELDS -> node.set(f.name, customFields.render(db, model, (JsonNode) row.get(f.column())));
                default -> node.set(f.name, value(f, row.get(f.column())));
            }
        }
        return node;
    }

    /** A column value as JSON, as its field's kind renders it. */
    public static JsonNode value(Field f, Object v) {
        return v == null ? NODES.nullNode() : FieldTypes.of(f).render(f, v);
    }

    public static String url(String baseUrl, Model m, long id) {
        return baseUrl + "/api/" + m.app() + "/" + m.path() + "/" + id + "/";
    }

    public static String displayUrl(String baseUrl, Model m, long id) {
        return baseUrl + "/" + m.app() + "/" + m.path() + "/" + id + "/";
    }
}
