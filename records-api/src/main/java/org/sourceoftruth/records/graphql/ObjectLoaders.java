package org.sourceoftruth.records.graphql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import graphql.GraphQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.dataloader.DataLoader;
import org.dataloader.DataLoaderFactory;
import org.dataloader.DataLoaderRegistry;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.engine.query.FilterCompiler;
import org.sourceoftruth.records.engine.query.ListQuery;
import org.sourceoftruth.records.engine.render.Renderer;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;

/**
 * How one GraphQL request reads its objects: through the engine's list query (the caller's
 * view permission limits every read, as for a REST list), and for related objects through one
 * DataLoader per model, selection and filter, so each level of the query costs one list query
 * per relation whatever the number of objects above it (by id for foreign keys and many-to-many
 * fields, by the parents' ids for reverse relations).
 */
final class ObjectLoaders {
    private final ListQuery lists;
    private final FilterTranslator filters;
    private final DataLoaderRegistry registry;
    private final String baseUrl;
    private final int maxObjects;

    ObjectLoaders(
            ListQuery lists, FilterTranslator filters, DataLoaderRegistry registry, String baseUrl, int maxObjects) {
        this.lists = lists;
        this.filters = filters;
        this.registry = registry;
        this.baseUrl = baseUrl;
        this.maxObjects = maxObjects;
    }

    /** A page of the model's objects that match the filter (a {@code <model>_list} query). */
    List<GraphqlObject> list(Model model, Set<String> include, Map<String, Object> filter, Pagination page) {
        ExtraFilter.Sql where = filters.translate(model, filter);
        return read(
                model, where, include, new ListQuery.PageRequest(page.limit(maxObjects), page.offset(), page.start()));
    }

    /** The object with this id (null when there is none the caller may view), loaded with others of its level. */
    CompletableFuture<GraphqlObject> byId(Model model, Set<String> include, Map<String, Object> filter, long id) {
        return byIdLoader(model, include, filter).load(id);
    }

    /** The objects with these ids the caller may view (and the filter matches), in the ids' order. */
    CompletableFuture<List<GraphqlObject>> byIds(
            Model model, Set<String> include, Map<String, Object> filter, List<Long> ids) {
        return byIdLoader(model, include, filter).loadMany(ids).thenApply(found -> {
            List<GraphqlObject> out = new ArrayList<>();
            for (GraphqlObject o : found) {
                if (o != null) {
                    out.add(o);
                }
            }
            return out;
        });
    }

    /** The objects of a reverse relation onto the object with this id, loaded with those of the other objects of its level. */
    CompletableFuture<List<GraphqlObject>> reverse(
            Relations.Reverse relation, Model target, Set<String> include, Map<String, Object> filter, long id) {
        Set<String> withLink = new TreeSet<>(include);
        withLink.add(relation.field().name);
        String name = "reverse|" + relation.owner().contentType() + "|" + relation.field().name + "|"
                + target.contentType() + "|" + key(withLink, filter);
        DataLoader<Long, List<GraphqlObject>> loader = registry.computeIfAbsent(
                name,
                n -> DataLoaderFactory.<Long, List<GraphqlObject>>newMappedDataLoader(keys ->
                        CompletableFuture.completedFuture(reverseBatch(relation, target, withLink, filter, keys))));
        return loader.load(id);
    }

    private DataLoader<Long, GraphqlObject> byIdLoader(Model model, Set<String> include, Map<String, Object> filter) {
        String name = "id|" + model.contentType() + "|" + key(include, filter);
        return registry.computeIfAbsent(
                name,
                n -> DataLoaderFactory.<Long, GraphqlObject>newMappedDataLoader(
                        keys -> CompletableFuture.completedFuture(byIdBatch(model, include, filter, keys))));
    }

    private Map<Long, GraphqlObject> byIdBatch(
            Model model, Set<String> include, Map<String, Object> filter, Set<Long> ids) {
        ExtraFilter.Sql where = FilterTranslator.and(
                filters.lookup(model, "id__in", new ArrayList<>(ids)), filters.translate(model, filter));
        Map<Long, GraphqlObject> out = new HashMap<>();
        for (GraphqlObject o : read(model, where, include, new ListQuery.PageRequest((long) ids.size(), 0, null))) {
            out.put(o.id(), o);
        }
        return out;
    }

    private Map<Long, List<GraphqlObject>> reverseBatch(
            Relations.Reverse relation, Model target, Set<String> include, Map<String, Object> filter, Set<Long> ids) {
        Field f = relation.field();
        Model owner = relation.owner();
        List<Long> keys = new ArrayList<>(ids);
        ExtraFilter.Sql link;
        if (f.kind == Kind.GENERIC_FK) {
            Map<String, Object> pair = new LinkedHashMap<>();
            pair.put(f.genericTypeColumn(), target.contentType());
            pair.put(f.genericIdColumn() + "__in", keys);
            link = filters.compile(owner, Json.MAPPER.valueToTree(pair));
        } else {
            link = filters.lookup(owner, f.name + "__in", keys);
        }
        ExtraFilter.Sql where = FilterTranslator.and(link, filters.translate(owner, filter));
        List<GraphqlObject> rows =
                read(owner, where, include, new ListQuery.PageRequest((long) maxObjects + 1, 0, null));
        if (rows.size() > maxObjects) {
            throw new GraphQLException("More than " + maxObjects + " related objects in '" + relation.name()
                    + "' at one level of the query; filter them or page the objects above.");
        }
        Map<Long, List<GraphqlObject>> out = new HashMap<>();
        for (Long id : keys) {
            out.put(id, new ArrayList<>());
        }
        for (GraphqlObject o : rows) {
            for (long parent : parents(o.node(), f, target)) {
                List<GraphqlObject> children = out.get(parent);
                if (children != null) {
                    children.add(o);
                }
            }
        }
        return out;
    }

    /** The ids of the objects of {@code target} that an object's relation field points at, from its rendering. */
    private static List<Long> parents(ObjectNode node, Field f, Model target) {
        List<Long> out = new ArrayList<>();
        switch (f.kind) {
            case GENERIC_FK -> {
                JsonNode type = node.get(f.genericTypeColumn());
                JsonNode id = node.get(f.genericIdColumn());
                if (type != null && target.contentType().equals(type.asText()) && id != null && id.isNumber()) {
                    out.add(id.asLong());
                }
            }
            case M2M -> {
                JsonNode items = node.get(f.name);
                if (items != null) {
                    items.forEach(item -> out.add(
                            item.isNumber() ? item.asLong() : item.path("id").asLong()));
                }
            }
            default -> {
                JsonNode ref = node.get(f.name);
                if (ref != null && !ref.isNull()) {
                    out.add(ref.isNumber() ? ref.asLong() : ref.path("id").asLong());
                }
            }
        }
        return out;
    }

    private List<GraphqlObject> read(
            Model model, ExtraFilter.Sql where, Set<String> include, ListQuery.PageRequest page) {
        Renderer.Options opts = new Renderer.Options(baseUrl, Renderer.Mode.FULL, include, Set.of());
        ListQuery.Page result =
                lists.list(model, db -> new FilterCompiler.Where(where.sql(), where.params()), null, opts, page);
        List<GraphqlObject> out = new ArrayList<>();
        for (ObjectNode node : result.results()) {
            out.add(new GraphqlObject(model, node));
        }
        return out;
    }

    private static String key(Set<String> include, Map<String, Object> filter) {
        return String.join(",", new TreeSet<>(include)) + "|" + (filter == null ? "" : Json.MAPPER.valueToTree(filter));
    }

    /** NetBox's {@code pagination: {offset, limit, start}}; no limit: up to the most objects a read returns. */
    record Pagination(long offset, Long limit, Long start) {
        static final Pagination NONE = new Pagination(0, null, null);

        long limit(int max) {
            return limit == null || limit <= 0 || limit > max ? max : limit;
        }

        /** This page of a list read whole (a relation's objects of one parent). */
        List<GraphqlObject> of(List<GraphqlObject> all) {
            List<GraphqlObject> from = all;
            if (start != null) {
                from = all.stream().filter(o -> o.id() >= start).toList();
            }
            int first = (int) Math.min(offset, from.size());
            int last = limit == null || limit <= 0 ? from.size() : (int) Math.min(from.size(), first + limit);
            return from.subList(first, last);
        }
    }
}
