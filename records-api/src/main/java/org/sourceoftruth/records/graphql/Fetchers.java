package org.sourceoftruth.records.graphql;

import com.fasterxml.jackson.databind.JsonNode;
import graphql.GraphqlErrorBuilder;
import graphql.execution.DataFetcherResult;
import graphql.schema.DataFetcher;
import graphql.schema.DataFetchingEnvironment;
import graphql.schema.SelectedField;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;

/**
 * The data fetchers of the generated schema: values read from an object's REST rendering,
 * related objects through the request's {@link ObjectLoaders} (found in the GraphQL context).
 * An object is rendered with the fields its selection asks for ({@code ?fields=} of a REST
 * list), and the relations they need.
 */
final class Fetchers {
    /** The GraphQL context key of the request's loaders. */
    static final String LOADERS = ObjectLoaders.class.getName();

    DataFetcher<Object> one(Model m) {
        return env -> {
            Object id = FilterTranslator.id(env.getArgument("id"));
            if (!(id instanceof Long number)) {
                return notFound(env, m);
            }
            return loaders(env)
                    .byId(m, include(env, m), null, number)
                    .thenApply(o ->
                            o != null ? DataFetcherResult.newResult().data(o).build() : notFound(env, m));
        };
    }

    DataFetcher<Object> list(Model m) {
        return env -> loaders(env).list(m, include(env, m), filters(env), pagination(env));
    }

    DataFetcher<Object> value(Field f) {
        return env -> plain(f, ((GraphqlObject) env.getSource()).node().get(f.name));
    }

    /** A member of the REST rendering that is no field of its own (a generic relation's type and id). */
    DataFetcher<Object> column(String member) {
        return env -> {
            JsonNode v = ((GraphqlObject) env.getSource()).node().get(member);
            return v == null || v.isNull() ? null : v.isNumber() ? v.numberValue() : v.asText();
        };
    }

    DataFetcher<Object> classType() {
        return env -> ((GraphqlObject) env.getSource()).model().apiName();
    }

    DataFetcher<Object> foreignKey(Field f, Model target) {
        return env -> {
            long id = idOf(((GraphqlObject) env.getSource()).node().get(f.name));
            return id < 0 ? null : loaders(env).byId(target, include(env, target), null, id);
        };
    }

    DataFetcher<Object> manyToMany(Field f, Model target) {
        return env -> {
            JsonNode items = ((GraphqlObject) env.getSource()).node().get(f.name);
            List<Long> ids = new ArrayList<>();
            if (items != null) {
                items.forEach(item -> {
                    long id = idOf(item);
                    if (id >= 0) {
                        ids.add(id);
                    }
                });
            }
            ObjectLoaders.Pagination page = pagination(env);
            return loaders(env)
                    .byIds(target, include(env, target), filters(env), ids)
                    .thenApply(page::of);
        };
    }

    DataFetcher<Object> generic(Field f, Map<String, Model> models) {
        return env -> {
            JsonNode node = ((GraphqlObject) env.getSource()).node();
            Model target = models.get(node.path(f.genericTypeColumn()).asText());
            long id = idOf(node.get(f.genericIdColumn()));
            return target == null || id < 0 ? null : loaders(env).byId(target, include(env, target), null, id);
        };
    }

    /**
     * A list of objects of one type, as the REST rendering gives it (a port's {@code link_peers}
     * and their type in {@code link_peers_type}): the objects of the union's models, loaded with
     * the others of their level.
     */
    DataFetcher<Object> typedList(Field f, Map<String, Model> models, Set<String> members) {
        return env -> {
            JsonNode node = ((GraphqlObject) env.getSource()).node();
            Model target = models.get(node.path(f.name + "_type").asText(""));
            JsonNode items = node.get(f.name);
            if (target == null || !members.contains(target.contentType()) || items == null) {
                return List.of();
            }
            List<Long> ids = new ArrayList<>();
            items.forEach(item -> {
                long id = idOf(item);
                if (id >= 0) {
                    ids.add(id);
                }
            });
            return loaders(env).byIds(target, include(env, target), null, ids);
        };
    }

    /**
     * The object a foreign key of the object the source's {@code via} points at points at, as
     * NetBox's {@code DjangoModelType} ({@code {pk}}): a component's {@code _site} is its
     * device's site.
     */
    DataFetcher<Object> placement(Field via, Model target, String then) {
        return env -> {
            long id = idOf(((GraphqlObject) env.getSource()).node().get(via.name));
            if (id < 0) {
                return null;
            }
            return loaders(env)
                    .byId(target, new TreeSet<>(Set.of("id", then)), null, id)
                    .thenApply(o -> {
                        long pk = o == null ? -1 : idOf(o.node().get(then));
                        return pk < 0 ? null : Map.of("pk", String.valueOf(pk));
                    });
        };
    }

    DataFetcher<Object> reverse(Relations.Reverse relation) {
        return env -> {
            GraphqlObject parent = env.getSource();
            ObjectLoaders.Pagination page = pagination(env);
            return loaders(env)
                    .reverse(relation, parent.model(), include(env, relation.owner()), filters(env), parent.id())
                    .thenApply(all -> relation.singular() ? (all.isEmpty() ? null : all.get(0)) : page.of(all));
        };
    }

    private static ObjectLoaders loaders(DataFetchingEnvironment env) {
        return env.getGraphQlContext().get(LOADERS);
    }

    private static DataFetcherResult<Object> notFound(DataFetchingEnvironment env, Model m) {
        return DataFetcherResult.newResult()
                .error(GraphqlErrorBuilder.newError(env)
                        .message(m.apiName() + " matching query does not exist.")
                        .build())
                .build();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> filters(DataFetchingEnvironment env) {
        return (Map<String, Object>) env.getArgument("filters");
    }

    private static ObjectLoaders.Pagination pagination(DataFetchingEnvironment env) {
        Map<String, Object> p = env.getArgument("pagination");
        if (p == null) {
            return ObjectLoaders.Pagination.NONE;
        }
        Number offset = (Number) p.get("offset");
        Number limit = (Number) p.get("limit");
        Number start = (Number) p.get("start");
        if ((offset != null && offset.longValue() < 0)
                || (limit != null && limit.longValue() < 0)
                || (start != null && start.longValue() < 0)) {
            throw new FilterTranslator.BadFilter("pagination: offset, limit and start cannot be negative.");
        }
        return new ObjectLoaders.Pagination(
                offset == null ? 0 : offset.longValue(),
                limit == null ? null : limit.longValue(),
                start == null ? null : start.longValue());
    }

    /**
     * The REST fields an object of {@code m} is rendered with for this selection: its id and the
     * model fields the selection names (custom field data is the custom fields' rendering).
     */
    private static Set<String> include(DataFetchingEnvironment env, Model m) {
        Set<String> names = new TreeSet<>();
        names.add("id");
        for (SelectedField s : env.getSelectionSet().getImmediateFields()) {
            String name = s.getName();
            if (name.equals("custom_field_data") || name.equals("custom_fields")) {
                for (Field f : m.fields()) {
                    if (f.kind == Kind.CUSTOM_FIELDS) {
                        names.add(f.name);
                    }
                }
            } else if (Absolutes.named(name) != null && m.field(name) == null) {
                names.add(Absolutes.named(name).value()); // a normalised measure: its value and unit
                names.add(Absolutes.named(name).unit());
            } else if (name.startsWith("_")
                    && m.field(name) == null
                    && Hops.via(name.substring(1)) != null
                    && m.field(Hops.via(name.substring(1))) != null) {
                names.add(Hops.via(name.substring(1))); // _site: through the device
            } else if (m.field(name) != null) {
                names.add(name);
                if (m.field(name + "_type") != null) {
                    names.add(name + "_type"); // the type of a list of objects of one type
                }
            } else {
                for (Field f : m.fields()) {
                    if (f.kind == Kind.GENERIC_FK
                            && (name.equals(f.genericTypeColumn()) || name.equals(f.genericIdColumn()))) {
                        names.add(f.name);
                    }
                }
            }
        }
        return names;
    }

    private static long idOf(JsonNode ref) {
        if (ref == null || ref.isNull()) {
            return -1;
        }
        JsonNode id = ref.isObject() ? ref.get("id") : ref;
        return id != null && id.canConvertToLong() ? id.asLong() : -1;
    }

    /** A rendered value as GraphQL serializes it: a choice's value, numbers, text, JSON trees as maps and lists. */
    static Object plain(Field f, JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return null;
        }
        if (f.kind == Kind.CHOICE && v.isObject() && v.has("value")) {
            v = v.get("value");
        }
        if (v.isTextual()) {
            return v.asText();
        }
        if (v.isNumber()) {
            return v.numberValue();
        }
        if (v.isBoolean()) {
            return v.asBoolean();
        }
        return Json.MAPPER.convertValue(v, Object.class);
    }
}
