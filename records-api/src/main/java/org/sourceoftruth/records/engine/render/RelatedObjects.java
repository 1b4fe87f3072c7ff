package org.sourceoftruth.records.engine.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.store.LargeValues;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.ObjectRef;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;

/**
 * What the rows of a page refer to, loaded for the whole page before it is rendered: nested
 * parents, many-to-many targets, tags, counts, generic relations and loaded computed fields,
 * one batched query per field (nested objects are rendered by {@link Renderer} in turn).
 */
@ApplicationScoped
public class RelatedObjects {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Inject
    ModelRegistry registry;

    @Inject
    Renderer renderer;

    @Inject
    LargeValues largeValues;

    /**
     * Loads what the chosen fields need for all rows at once: one query per related field, all of
     * them sent in one round trip ({@link Db#queryAll}); the nested objects they find are then
     * rendered. Their own nested parents (a device type's manufacturer) are read in the same
     * round trip ({@link #lookupNested}) and come back here as {@code preloaded} rows by field name.
     */
    Map<String, Map<Object, JsonNode>> prefetch(
            Db db,
            Model model,
            List<Row> rows,
            List<Field> out,
            Renderer.Options opts,
            Map<String, List<Row>> preloaded,
            NestedObjectCache.Read cache) {
        Map<String, Map<Object, JsonNode>> related = new HashMap<>();
        if (rows.isEmpty()) {
            return related;
        }
        // the rows' own ids, matched by Db.idMatch: "= ?" for one row, which PostgreSQL plans
        // once per session ("= any(?)" had a site's six-count union planned anew per request)
        List<Long> ids = rows.stream().map(Row::id).toList();
        Renderer.Options nested = opts.nested(null);
        Lookups lookups = new Lookups(db, cache);
        List<Field> counted = new ArrayList<>();
        for (Field f : out) {
            if (f.loader() != null) {
                related.put(f.name, loaded(db, cache, f, rows, nestedOptions(f, opts, nested)));
                continue;
            }
            switch (f.kind) {
                case FK -> {
                    if (f.isRenderedAsId()) {
                        continue;
                    }
                    Map<Object, JsonNode> byId = new HashMap<>();
                    related.put(f.name, byId);
                    Model target = registry.require(f.target());
                    List<Row> given = preloaded.get(f.name);
                    if (given != null) {
                        renderNested(lookups, target, given, nestedOptions(f, opts, nested), Map.of(), byId::put);
                        continue;
                    }
                    Set<Long> targets = new TreeSet<>();
                    for (Row r : rows) {
                        Long v = r.longValue(f.column());
                        if (v != null) {
                            targets.add(v);
                        }
                    }
                    lookupNested(lookups, target, targets, nestedOptions(f, opts, nested), byId::put);
                }
                case M2M -> {
                    Map<Object, JsonNode> byOwner = new HashMap<>();
                    related.put(f.name, byOwner);
                    Renderer.Options m2mNested = nestedOptions(f, opts, nested);
                    Db.Select owners = Db.idMatch(f.joinOwnColumn(), ids);
                    lookups.add(
                            "select " + f.joinOwnColumn() + " as own, " + f.joinTargetColumn() + " as target from "
                                    + f.joinTable() + " where " + owners.sql() + " order by 2",
                            owners.params(),
                            links -> m2m(db, cache, f, links, m2mNested, byOwner));
                }
                case TAGS -> {
                    Map<Object, JsonNode> byObject = new HashMap<>();
                    related.put(f.name, byObject);
                    List<Long> untold = lookups.uncached(model, f.name, ids, opts, byObject::put);
                    if (untold.isEmpty()) {
                        continue;
                    }
                    Db.Select tagged = Db.idMatch("ti.object_id", untold);
                    List<Object> params = new ArrayList<>(List.of(model.contentType()));
                    params.addAll(tagged.params());
                    if (f.isTagSlugs()) {
                        lookups.add(
                                "select ti.object_id as object_id, t.slug from " + SystemTables.EXTRAS_TAGGEDITEM
                                        + " ti join " + SystemTables.EXTRAS_TAG + " t"
                                        + " on t.id = ti.tag_id where ti.object_type = ? and " + tagged.sql()
                                        + " order by t.slug",
                                params,
                                tags -> {
                                    tagSlugs(tags, byObject);
                                    lookups.rendered(model, f.name, untold, opts, byObject);
                                });
                    } else {
                        lookups.add(
                                "select ti.object_id as object_id, t.* from " + SystemTables.EXTRAS_TAGGEDITEM + " ti"
                                        + " join " + SystemTables.EXTRAS_TAG
                                        + " t on t.id = ti.tag_id where ti.object_type = ? and "
                                        + tagged.sql()
                                        + " order by t.weight, t.name",
                                params,
                                tags -> {
                                    tags(tags, opts, byObject);
                                    lookups.rendered(model, f.name, untold, opts, byObject);
                                });
                    }
                }
                case COUNT -> {
                    if (f.counterColumn() == null
                            && !(opts.mode() == Renderer.Mode.NESTED && f.nestedCount() == Field.NestedCount.ZERO)) {
                        counted.add(f);
                    }
                }
                case GENERIC_FK -> {
                    Map<Object, JsonNode> byKey = new HashMap<>();
                    related.put(f.name, byKey);
                    genericTargets(f, rows)
                            .forEach((type, targetIds) -> registry.byContentType(type)
                                    .ifPresent(target -> lookupNested(
                                            lookups,
                                            target,
                                            targetIds,
                                            nested,
                                            (id, node) -> byKey.put(type + ":" + id, node))));
                }
                default -> {}
            }
        }
        if (!counted.isEmpty()) {
            countLookup(lookups, counted, ids, related);
        }
        lookups.run();
        return related;
    }

    /**
     * The statements of one prefetch, sent together; each one's rows go to its handler, in the
     * order they were added, once all have been read.
     */
    private static final class Lookups {
        private final Db db;
        /** The nested objects this read may reuse and keeps (null: none, e.g. a write's response). */
        private final NestedObjectCache.Read cache;

        private final List<Db.Select> selects = new ArrayList<>();
        private final List<Consumer<List<Row>>> handlers = new ArrayList<>();

        Lookups(Db db, NestedObjectCache.Read cache) {
            this.db = db;
            this.cache = cache;
        }

        /**
         * The ids whose value (the object nested when {@code field} is null, else that field's
         * value) the read's cache does not hold; the ones it holds go to {@code found} at once.
         */
        List<Long> uncached(
                Model model,
                String field,
                Collection<Long> ids,
                Renderer.Options options,
                BiConsumer<Long, JsonNode> found) {
            if (cache == null) {
                return ids instanceof List<Long> list ? list : new ArrayList<>(ids);
            }
            List<Long> missing = new ArrayList<>(ids.size());
            for (Long id : ids) {
                JsonNode kept = cache.find(model, field, id, options);
                if (kept != null) {
                    found.accept(id, kept);
                } else {
                    missing.add(id);
                }
            }
            return missing;
        }

        /** Hands the field's values of these objects, as looked up (an empty list when absent), to the read's cache. */
        void rendered(
                Model model, String field, List<Long> ids, Renderer.Options options, Map<Object, JsonNode> values) {
            if (cache != null) {
                for (Long id : ids) {
                    cache.rendered(model, field, id, options, values.computeIfAbsent(id, k -> NODES.arrayNode()));
                }
            }
        }

        void add(String sql, List<?> params, Consumer<List<Row>> handler) {
            selects.add(new Db.Select(sql, params));
            handlers.add(handler);
        }

        void run() {
            if (selects.isEmpty()) {
                return;
            }
            List<List<Row>> results = db.queryAll(selects);
            for (int i = 0; i < results.size(); i++) {
                handlers.get(i).accept(results.get(i));
            }
        }
    }

    /**
     * The related-object counts of the rows, all count fields in one statement (a UNION ALL of
     * one grouped count per field): a site's six counts were six round trips per request.
     */
    private static void countLookup(
            Lookups lookups, List<Field> counted, List<Long> ids, Map<String, Map<Object, JsonNode>> related) {
        StringBuilder sql = new StringBuilder();
        List<Object> params = new ArrayList<>(counted.size());
        for (int i = 0; i < counted.size(); i++) {
            Field f = counted.get(i);
            related.put(f.name, new HashMap<>());
            String where = f.countWhere() == null ? "" : " and (" + f.countWhere() + ")";
            Db.Select owners = Db.idMatch(f.countColumn(), ids);
            sql.append(i == 0 ? "" : " union all ")
                    .append("select ")
                    .append(i)
                    .append(" as f, ")
                    .append(f.countColumn())
                    .append(" as k, count(*) as n from ")
                    .append(f.countTable())
                    .append(" where ")
                    .append(owners.sql())
                    .append(where)
                    .append(" group by 2");
            params.addAll(owners.params());
        }
        lookups.add(sql.toString(), params, rows -> {
            for (Row r : rows) {
                related.get(counted.get(((Number) r.get("f")).intValue()).name)
                        .put(((Number) r.get("k")).longValue(), NODES.numberNode(((Number) r.get("n")).longValue()));
            }
        });
    }

    /**
     * A loaded field's values for the page, its {@link ObjectRef}s rendered in nested form (one
     * query per content type for all of them) and its relative URLs left for the response to
     * make absolute.
     */
    private Map<Object, JsonNode> loaded(
            Db db, NestedObjectCache.Read cache, Field f, List<Row> rows, Renderer.Options nested) {
        Map<Long, Object> values = f.loader().load(db, rows);
        Map<String, Set<Long>> refs = new HashMap<>();
        values.values().forEach(v -> collectRefs(v, refs));
        Map<String, JsonNode> rendered = new HashMap<>();
        Lookups lookups = new Lookups(db, cache);
        refs.forEach((type, ids) -> registry.byContentType(type)
                .ifPresent(target ->
                        lookupNested(lookups, target, ids, nested, (id, node) -> rendered.put(type + ":" + id, node))));
        lookups.run();
        Map<Object, JsonNode> out = new HashMap<>();
        values.forEach((id, v) -> {
            JsonNode node = toJson(v, rendered);
            AbsoluteUrls.absolutize(node, nested.baseUrl());
            out.put(id, node);
        });
        return out;
    }

    private static void collectRefs(Object v, Map<String, Set<Long>> refs) {
        if (v instanceof ObjectRef ref) {
            refs.computeIfAbsent(ref.contentType(), k -> new TreeSet<>()).add(ref.id());
        } else if (v instanceof Collection<?> list) {
            list.forEach(item -> collectRefs(item, refs));
        } else if (v instanceof Map<?, ?> map) {
            map.values().forEach(item -> collectRefs(item, refs));
        }
    }

    private static JsonNode toJson(Object v, Map<String, JsonNode> rendered) {
        if (v instanceof ObjectRef ref) {
            JsonNode node = rendered.get(ref.node());
            return node == null ? NODES.nullNode() : node.deepCopy();
        }
        if (v instanceof Collection<?> list) {
            ArrayNode arr = NODES.arrayNode();
            list.forEach(item -> arr.add(toJson(item, rendered)));
            return arr;
        }
        if (v instanceof Map<?, ?> map) {
            ObjectNode obj = NODES.objectNode();
            map.forEach((k, item) -> obj.set(String.valueOf(k), toJson(item, rendered)));
            return obj;
        }
        return Json.MAPPER.valueToTree(v);
    }

    /** The target's brief set, or the field's own nested field list when it declares one. */
    private static Renderer.Options nestedOptions(Field f, Renderer.Options opts, Renderer.Options nested) {
        return f.nestedFields() == null ? nested : opts.nested(Set.copyOf(f.nestedFields()));
    }

    private Map<Object, JsonNode> loadNested(
            Db db, NestedObjectCache.Read cache, Model target, Collection<Long> ids, Renderer.Options nested) {
        Map<Object, JsonNode> byId = new HashMap<>();
        Lookups lookups = new Lookups(db, cache);
        lookupNested(lookups, target, ids, nested, byId::put);
        lookups.run();
        return byId;
    }

    /**
     * Adds the lookup of the target's rows with these ids, each rendered nested and handed on by
     * id. The parents that the nested form shows in turn (a device type's manufacturer, an
     * interface's device) are looked up in the same round trip, through the target's foreign key
     * columns: rendering the rows would otherwise wait for a round trip of their own. Objects
     * the read's cache holds are handed on at once and not looked up.
     */
    private void lookupNested(
            Lookups lookups,
            Model target,
            Collection<Long> ids,
            Renderer.Options nested,
            BiConsumer<Long, JsonNode> found) {
        ids = lookups.uncached(target, null, ids, nested, found);
        if (ids.isEmpty()) {
            return;
        }
        Map<String, List<Row>> parents = new HashMap<>();
        Db.Select ofTheseRows = Db.idMatch("o.id", ids);
        for (Field p : renderer.selectFields(target, nested)) {
            if (p.kind == Kind.FK && p.loader() == null && !p.isRenderedAsId()) {
                // handlers run in the order added: these fill `parents` before the rows below use it
                lookups.add(
                        nestedSelect(registry.require(p.target()), nested) + " where t.id in (select o." + p.column()
                                + " from "
                                + target.table() + " o where " + ofTheseRows.sql() + ")",
                        ofTheseRows.params(),
                        rows -> parents.put(p.name, rows));
            }
        }
        Db.Select select = Db.byIds(nestedSelect(target, nested), ids);
        lookups.add(select.sql(), select.params(), rows -> renderNested(lookups, target, rows, nested, parents, found));
    }

    /**
     * The select of a nested object's rows: without its large values, which a nested object never
     * shows (a site's 10 MB of comments read for each device page that names the site).
     */
    private String nestedSelect(Model target, Renderer.Options nested) {
        return renderer.shows(target, nested, largeValues.largeColumns(target))
                ? target.selectFrom()
                : largeValues.select(target);
    }

    /** Renders the rows nested and hands each on by id (and to the read's cache). */
    private void renderNested(
            Lookups lookups,
            Model target,
            List<Row> rows,
            Renderer.Options nested,
            Map<String, List<Row>> parents,
            BiConsumer<Long, JsonNode> found) {
        List<ObjectNode> nodes = renderer.render(lookups.db, target, rows, nested, parents, lookups.cache);
        for (int i = 0; i < rows.size(); i++) {
            long id = rows.get(i).id();
            if (lookups.cache != null) {
                lookups.cache.rendered(target, null, id, nested, nodes.get(i));
            }
            found.accept(id, nodes.get(i));
        }
    }

    /** The owners' targets, in target id order, from the link rows (own, target) of a many-to-many field. */
    private void m2m(
            Db db,
            NestedObjectCache.Read cache,
            Field f,
            List<Row> links,
            Renderer.Options nested,
            Map<Object, JsonNode> byOwner) {
        Set<Long> targetIds = new LinkedHashSet<>();
        links.forEach(l -> targetIds.add(l.longValue("target")));
        Map<Object, JsonNode> targets = loadNested(db, cache, registry.require(f.target()), targetIds, nested);
        for (Row l : links) {
            ArrayNode arr = (ArrayNode) byOwner.computeIfAbsent(l.longValue("own"), k -> NODES.arrayNode());
            JsonNode t = targets.get(l.longValue("target"));
            if (t != null) {
                arr.add(t);
            }
        }
    }

    private void tags(List<Row> rows, Renderer.Options opts, Map<Object, JsonNode> byObject) {
        Model tagModel = registry.require("extras.tag");
        for (Row r : rows) {
            ObjectNode tag = NODES.objectNode();
            tag.put("id", r.id());
            tag.put("url", Renderer.url(opts.baseUrl(), tagModel, r.id()));
            tag.put("display_url", Renderer.displayUrl(opts.baseUrl(), tagModel, r.id()));
            tag.put("display", r.str("name"));
            tag.put("name", r.str("name"));
            tag.put("slug", r.str("slug"));
            tag.put("color", r.str("color"));
            ((ArrayNode) byObject.computeIfAbsent(r.longValue("object_id"), k -> NODES.arrayNode())).add(tag);
        }
    }

    /** Tags as a plain list of slugs (config contexts), ordered by slug. */
    private static void tagSlugs(List<Row> rows, Map<Object, JsonNode> byObject) {
        for (Row r : rows) {
            ((ArrayNode) byObject.computeIfAbsent(r.longValue("object_id"), k -> NODES.arrayNode())).add(r.str("slug"));
        }
    }

    /** The ids a generic relation of the rows points to, by content type. */
    private static Map<String, Set<Long>> genericTargets(Field f, List<Row> rows) {
        Map<String, Set<Long>> idsByType = new HashMap<>();
        for (Row r : rows) {
            String type = r.str(f.genericTypeColumn());
            Long id = r.longValue(f.genericIdColumn());
            if (type != null && id != null) {
                idsByType.computeIfAbsent(type, k -> new TreeSet<>()).add(id);
            }
        }
        return idsByType;
    }
}
