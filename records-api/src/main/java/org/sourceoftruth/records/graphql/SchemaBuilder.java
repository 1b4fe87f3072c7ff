package org.sourceoftruth.records.graphql;

import static graphql.Scalars.GraphQLBoolean;
import static graphql.Scalars.GraphQLID;
import static graphql.Scalars.GraphQLInt;
import static graphql.Scalars.GraphQLString;
import static org.sourceoftruth.records.graphql.LookupInputs.field;
import static org.sourceoftruth.records.graphql.LookupInputs.ref;

import graphql.schema.FieldCoordinates;
import graphql.schema.GraphQLArgument;
import graphql.schema.GraphQLCodeRegistry;
import graphql.schema.GraphQLEnumType;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLInputObjectType;
import graphql.schema.GraphQLList;
import graphql.schema.GraphQLNonNull;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLOutputType;
import graphql.schema.GraphQLSchema;
import graphql.schema.GraphQLTypeReference;
import graphql.schema.GraphQLUnionType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/**
 * NetBox's GraphQL schema generated from the model registry: for every model an object type of
 * its fields (relations as nested objects, reverse relations as lists), a filter input of its
 * fields' lookups, and the query fields {@code <model>(id:)} and
 * {@code <model>_list(filters:, pagination:)}; names as {@link GraphqlNames} gives them. Nothing
 * here is written for one model.
 */
final class SchemaBuilder {
    /** NetBox's reference to an object by its primary key only ({@code {pk}}). */
    static final String DJANGO_MODEL = "DjangoModelType";

    private final ModelRegistry registry;
    private final Relations relations;
    private final Fetchers fetchers;
    /** The models in the schema, by content type (one per type name). */
    private final Map<String, Model> models = new LinkedHashMap<>();
    /** The query field of each model in the schema, by content type. */
    private final Map<String, String> queryFields = new LinkedHashMap<>();

    private final GraphQLCodeRegistry.Builder code = GraphQLCodeRegistry.newCodeRegistry();
    private final List<graphql.schema.GraphQLNamedType> types = new ArrayList<>();
    /** The choice enums of the filters, by name: their values' names, values and labels. */
    private final Map<String, Map<String, String[]>> enums = new LinkedHashMap<>();
    /** The lookup inputs of the choice enums, by name: the enum each looks up. */
    private final Map<String, String> lookups = new LinkedHashMap<>();

    SchemaBuilder(ModelRegistry registry, Relations relations, Fetchers fetchers) {
        this.registry = registry;
        this.relations = relations;
        this.fetchers = fetchers;
        Set<String> typeNames = new HashSet<>();
        Set<String> queryNames = new HashSet<>();
        List<Model> all = new ArrayList<>(registry.all());
        all.sort(Comparator.comparing(Model::contentType));
        for (Model m : all) {
            if (m.field("id") == null || !typeNames.add(GraphqlNames.type(m))) {
                continue;
            }
            String name = queryNames.contains(GraphqlNames.query(m)) ? GraphqlNames.snake(m) : GraphqlNames.query(m);
            if (queryNames.add(name)) {
                models.put(m.contentType(), m);
                queryFields.put(m.contentType(), name);
            }
        }
    }

    GraphQLSchema build() {
        GraphQLObjectType.Builder query = GraphQLObjectType.newObject().name("Query");
        for (Model m : models.values()) {
            objectType(m);
            filterType(m);
            String one = queryFields.get(m.contentType());
            String list = one + "_list";
            query.field(GraphQLFieldDefinition.newFieldDefinition()
                    .name(one)
                    .argument(argument("id", GraphQLNonNull.nonNull(GraphQLID)))
                    .type(GraphQLNonNull.nonNull(ref(GraphqlNames.type(m)))));
            code.dataFetcher(FieldCoordinates.coordinates("Query", one), fetchers.one(m));
            query.field(GraphQLFieldDefinition.newFieldDefinition()
                    .name(list)
                    .arguments(listArguments(m))
                    .type(listOf(GraphqlNames.type(m))));
            code.dataFetcher(FieldCoordinates.coordinates("Query", list), fetchers.list(m));
        }
        addEnums();
        types.addAll(LookupInputs.all());
        types.addAll(TreeNodes.types());
        types.add(ContentTypes.filterType());
        types.addAll(JsonLookups.types());
        types.add(GraphQLObjectType.newObject()
                .name(DJANGO_MODEL)
                .field(GraphQLFieldDefinition.newFieldDefinition().name("pk").type(GraphQLNonNull.nonNull(GraphQLID)))
                .build());
        types.addAll(GraphqlScalars.ALL);
        return GraphQLSchema.newSchema()
                .query(query.build())
                .additionalTypes(new java.util.LinkedHashSet<>(types))
                .codeRegistry(code.build())
                .build();
    }

    private void objectType(Model m) {
        String typeName = GraphqlNames.type(m);
        GraphQLObjectType.Builder t = GraphQLObjectType.newObject().name(typeName);
        Set<String> names = new HashSet<>();
        for (Field f : m.fields()) {
            if (f.isWriteOnly()) {
                continue;
            }
            switch (f.kind) {
                case FK -> {
                    Model target = models.get(f.target());
                    if (target != null) {
                        add(t, names, typeName, f.name, nullable(f) ? ref(GraphqlNames.type(target)) : nonNull(target));
                        code.dataFetcher(
                                FieldCoordinates.coordinates(typeName, f.name), fetchers.foreignKey(f, target));
                    }
                }
                case M2M, TAGS -> {
                    Model target = models.get(f.kind == Kind.TAGS ? "extras.tag" : f.target());
                    if (target != null && names.add(f.name)) {
                        t.field(GraphQLFieldDefinition.newFieldDefinition()
                                .name(f.name)
                                .arguments(listArguments(target))
                                .type(listOf(GraphqlNames.type(target))));
                        code.dataFetcher(
                                FieldCoordinates.coordinates(typeName, f.name), fetchers.manyToMany(f, target));
                    }
                }
                case GENERIC_FK -> {
                    GraphQLUnionType union = union(m, f);
                    if (union != null) {
                        add(t, names, typeName, f.name, GraphQLTypeReference.typeRef(union.getName()));
                        code.dataFetcher(FieldCoordinates.coordinates(typeName, f.name), fetchers.generic(f, models));
                    }
                    // the pair beside the object, as the REST API renders it
                    add(t, names, typeName, f.genericTypeColumn(), GraphQLString);
                    code.dataFetcher(
                            FieldCoordinates.coordinates(typeName, f.genericTypeColumn()),
                            fetchers.column(f.genericTypeColumn()));
                    add(t, names, typeName, f.genericIdColumn(), GraphqlScalars.BIG_INT);
                    code.dataFetcher(
                            FieldCoordinates.coordinates(typeName, f.genericIdColumn()),
                            fetchers.column(f.genericIdColumn()));
                }
                case COMPUTED -> {
                    String union = GraphqlNames.typedList(m, f);
                    if (union != null) {
                        Set<String> members = typedListMembers();
                        typedListUnion(union, members);
                        add(t, names, typeName, f.name, listOf(union));
                        code.dataFetcher(
                                FieldCoordinates.coordinates(typeName, f.name), fetchers.typedList(f, models, members));
                    } else {
                        add(t, names, typeName, f.name, scalar(f));
                        code.dataFetcher(FieldCoordinates.coordinates(typeName, f.name), fetchers.value(f));
                    }
                }
                case CUSTOM_FIELDS -> {
                    add(t, names, typeName, "custom_fields", GraphQLNonNull.nonNull(GraphqlScalars.JSON));
                    add(t, names, typeName, "custom_field_data", GraphQLNonNull.nonNull(GraphqlScalars.JSON));
                    code.dataFetcher(FieldCoordinates.coordinates(typeName, "custom_fields"), fetchers.value(f));
                    code.dataFetcher(FieldCoordinates.coordinates(typeName, "custom_field_data"), fetchers.value(f));
                }
                default -> {
                    add(t, names, typeName, f.name, scalar(f));
                    code.dataFetcher(FieldCoordinates.coordinates(typeName, f.name), fetchers.value(f));
                }
            }
        }
        for (Absolutes.Measure a : Absolutes.ALL) {
            if (m.field(a.value()) != null && m.field(a.unit()) != null && m.field(a.name()) == null) {
                add(t, names, typeName, a.name(), a.whole() ? GraphQLInt : GraphqlScalars.DECIMAL);
                code.dataFetcher(FieldCoordinates.coordinates(typeName, a.name()), (graphql.schema.DataFetcher<Object>)
                        env -> a.of(((GraphqlObject) env.getSource()).node()));
            }
        }
        // a component's placement through its device, as NetBox's cached _site, _location, _rack
        for (Map.Entry<Hops.Hop, Model> h : Hops.of(registry, m).entrySet()) {
            Hops.Hop hop = h.getKey();
            Model via = models.get(m.field(hop.via()).target());
            if (Hops.PLACEMENTS.contains(hop.name()) && via != null && names.add("_" + hop.name())) {
                t.field(GraphQLFieldDefinition.newFieldDefinition()
                        .name("_" + hop.name())
                        .type(ref(DJANGO_MODEL)));
                code.dataFetcher(
                        FieldCoordinates.coordinates(typeName, "_" + hop.name()),
                        fetchers.placement(m.field(hop.via()), via, hop.then()));
            }
        }
        if (names.add("class_type")) {
            t.field(GraphQLFieldDefinition.newFieldDefinition()
                    .name("class_type")
                    .type(GraphQLNonNull.nonNull(GraphQLString)));
            code.dataFetcher(FieldCoordinates.coordinates(typeName, "class_type"), fetchers.classType());
        }
        for (Relations.Reverse r : relations.onto(m.contentType()).values()) {
            if (!models.containsKey(r.owner().contentType()) || !names.add(r.name())) {
                continue;
            }
            if (r.singular()) {
                t.field(GraphQLFieldDefinition.newFieldDefinition()
                        .name(r.name())
                        .type(ref(GraphqlNames.type(r.owner()))));
            } else {
                t.field(GraphQLFieldDefinition.newFieldDefinition()
                        .name(r.name())
                        .arguments(listArguments(r.owner()))
                        .type(listOf(GraphqlNames.type(r.owner()))));
            }
            code.dataFetcher(FieldCoordinates.coordinates(typeName, r.name()), fetchers.reverse(r));
        }
        types.add(t.build());
    }

    private void filterType(Model m) {
        String name = GraphqlNames.filter(m);
        GraphQLInputObjectType.Builder t =
                GraphQLInputObjectType.newInputObject().name(name);
        Set<String> names = new HashSet<>();
        for (Field f : m.fields()) {
            // a relation a REST filter of its own replaces is still a GraphQL filter (a port's cable)
            // and a count, which NetBox's GraphQL filters by (a device's console_port_count)
            if (!f.isFilterable() && f.kind != Kind.FK && f.kind != Kind.COUNT
                    || f.isSecret()
                    || f.isWriteOnly() && !f.isUnrendered()) {
                continue;
            }
            switch (f.kind) {
                case FK, M2M, TAGS -> {
                    Model target = models.get(f.kind == Kind.TAGS ? "extras.tag" : f.target());
                    if (target != null && names.add(f.name)) {
                        t.field(field(f.name, ref(GraphqlNames.filter(target))));
                        if (f.kind == Kind.FK && names.add(f.name + "_id")) {
                            String lookup = GraphqlNames.lookup(m, f, f.name + "_id");
                            // a tree's own parent_id is an ID in NetBox's filters
                            t.field(field(
                                    f.name + "_id",
                                    lookup != null ? ref(lookup) : target == m ? GraphQLID : idFilter(target)));
                        }
                    }
                }
                case CHOICE -> {
                    if (names.add(f.name)) {
                        GraphqlNames.Choice c = GraphqlNames.choice(m, f);
                        t.field(field(f.name, ref(c == null ? LookupInputs.STR : choiceLookup(c))));
                    }
                }
                case GENERIC_FK -> {
                    // the pair: the type as NetBox's ContentTypeFilter (or an enum of the types), the id
                    List<Model> targets = new ArrayList<>();
                    f.genericTypes().stream()
                            .map(models::get)
                            .filter(x -> x != null)
                            .forEach(targets::add);
                    GraphqlNames.Choice c = GraphqlNames.typeChoice(m, f, targets);
                    if (names.add(f.genericTypeColumn())) {
                        t.field(field(f.genericTypeColumn(), ref(c != null ? choiceLookup(c) : ContentTypes.FILTER)));
                    }
                    if (names.add(f.genericTypeColumn() + "_id")) {
                        t.field(field(f.genericTypeColumn() + "_id", GraphQLID));
                    }
                    if (names.add(f.genericIdColumn())) {
                        String lookup = GraphqlNames.lookup(m, f, f.genericIdColumn());
                        t.field(field(f.genericIdColumn(), lookup != null ? ref(lookup) : GraphQLID));
                    }
                }
                case CUSTOM_FIELDS -> {
                    if (names.add("custom_field_data")) {
                        t.field(field("custom_field_data", ref(LookupInputs.JSON)));
                    }
                }
                default -> {
                    GraphqlNames.Choice c = f.kind == Kind.STRING ? GraphqlNames.choice(m, f) : null;
                    String lookup = c != null
                            ? choiceLookup(c)
                            : ContentTypes.filters(f) ? ContentTypes.FILTER : GraphqlNames.lookup(m, f, f.name);
                    if (lookup != null && names.add(f.name)) {
                        t.field(field(f.name, ref(lookup)));
                    }
                }
            }
        }
        for (String a : Addresses.names(m)) {
            if (!Addresses.takesFilter(m, a) && names.add(a)) {
                t.field(field(
                        a,
                        switch (a) {
                            case "family" -> familyEnum();
                            case "assigned" -> GraphQLBoolean;
                            default -> GraphQLList.list(GraphQLNonNull.nonNull(GraphQLString));
                        }));
            }
        }
        for (Map.Entry<Hops.Hop, Model> h : Hops.of(registry, m).entrySet()) {
            Model target = models.get(h.getValue().contentType());
            if (target != null && names.add(h.getKey().name())) {
                t.field(field(
                        h.getKey().name(),
                        h.getKey().name().endsWith("_id") ? idFilter(target) : ref(GraphqlNames.filter(target))));
            }
        }
        for (Relations.Reverse r : relations.onto(m.contentType()).values()) {
            if (r.filters() && models.containsKey(r.owner().contentType()) && names.add(r.name())) {
                t.field(field(r.name(), ref(GraphqlNames.filter(r.owner()))));
            }
        }
        t.field(field("AND", ref(name)));
        t.field(field("OR", ref(name)));
        t.field(field("NOT", ref(name)));
        t.field(field("DISTINCT", GraphQLBoolean));
        types.add(t.build());
    }

    /**
     * The lookup input of a choice field's enum (or the enum itself, where NetBox's filter takes
     * the value bare), the enum taking the values of every field that shares it.
     */
    private String choiceLookup(GraphqlNames.Choice c) {
        Map<String, String[]> values = enums.computeIfAbsent(c.name(), k -> new LinkedHashMap<>());
        for (String v : c.values().values()) {
            values.putIfAbsent(c.valueName(v), new String[] {v, c.values().label(v)});
        }
        if (c.bare()) {
            return c.lookup();
        }
        lookups.put(c.lookup(), c.name());
        if (c.nested()) {
            lookups.put(c.lookup() + "BaseFilterLookup", c.lookup());
            return c.lookup() + "BaseFilterLookup";
        }
        return c.lookup();
    }

    /** NetBox's IPAddressFamilyEnum ({@code FAMILY_4}, {@code FAMILY_6}), which an address family filter takes bare. */
    private GraphQLTypeReference familyEnum() {
        Map<String, String[]> values = enums.computeIfAbsent(Addresses.FAMILY_ENUM, k -> new LinkedHashMap<>());
        values.putIfAbsent("FAMILY_4", new String[] {"4", "IPv4"});
        values.putIfAbsent("FAMILY_6", new String[] {"6", "IPv6"});
        return ref(Addresses.FAMILY_ENUM);
    }

    private void addEnums() {
        for (Map.Entry<String, Map<String, String[]>> e : enums.entrySet()) {
            GraphQLEnumType.Builder b = GraphQLEnumType.newEnum().name(e.getKey());
            e.getValue().forEach((name, v) -> b.value(name, v[0], v[1]));
            types.add(b.build());
        }
        lookups.forEach((lookup, values) -> types.add(LookupInputs.choice(lookup, ref(values))));
    }

    /** The union of a generic relation's target types, or null when none of them is in the schema. */
    private GraphQLUnionType union(Model m, Field f) {
        GraphQLUnionType.Builder u = GraphQLUnionType.newUnionType().name(GraphqlNames.union(m, f));
        boolean any = false;
        for (String target : f.genericTypes()) {
            Model t = models.get(target);
            if (t != null) {
                u.possibleType(GraphQLTypeReference.typeRef(GraphqlNames.type(t)));
                any = true;
            }
        }
        if (!any) {
            return null;
        }
        GraphQLUnionType union = u.build();
        if (types.stream()
                .noneMatch(t -> t instanceof GraphQLUnionType x && x.getName().equals(union.getName()))) {
            types.add(union);
            code.typeResolver(
                    union.getName(),
                    env -> env.getSchema().getObjectType(GraphqlNames.type(((GraphqlObject) env.getObject()).model())));
        }
        return union;
    }

    /**
     * The models a cable's far end or path may reach: every model with a cable's far end of its
     * own ({@code link_peers}) or a path ({@code connected_endpoints}).
     */
    private Set<String> typedListMembers() {
        Set<String> out = new java.util.TreeSet<>();
        for (Model m : models.values()) {
            for (Field f : m.fields()) {
                if (GraphqlNames.typedList(m, f) != null) {
                    out.add(m.contentType());
                }
            }
        }
        return out;
    }

    private void typedListUnion(String name, Set<String> members) {
        if (types.stream()
                .anyMatch(t -> t instanceof GraphQLUnionType x && x.getName().equals(name))) {
            return;
        }
        GraphQLUnionType.Builder u = GraphQLUnionType.newUnionType().name(name);
        members.forEach(c -> u.possibleType(GraphQLTypeReference.typeRef(GraphqlNames.type(models.get(c)))));
        types.add(u.build());
        code.typeResolver(
                name,
                env -> env.getSchema().getObjectType(GraphqlNames.type(((GraphqlObject) env.getObject()).model())));
    }

    private static void add(
            GraphQLObjectType.Builder t, Set<String> names, String typeName, String name, GraphQLOutputType type) {
        if (names.add(name)) {
            t.field(GraphQLFieldDefinition.newFieldDefinition().name(name).type(type));
        }
    }

    /** A field's GraphQL scalar, non-null where the REST API always renders a value. */
    private static GraphQLOutputType scalar(Field f) {
        if (f.name.equals("id")) {
            return GraphQLNonNull.nonNull(GraphQLID);
        }
        GraphQLOutputType type;
        boolean alwaysSet;
        switch (f.kind) {
            case INTEGER -> {
                type = LookupInputs.isBig(f) ? GraphqlScalars.BIG_INT : GraphQLInt;
                alwaysSet = !f.isNullable();
            }
            case COUNT -> {
                type = GraphqlScalars.BIG_INT;
                alwaysSet = true;
            }
            case DECIMAL -> {
                type = GraphqlScalars.DECIMAL;
                alwaysSet = false;
            }
            case BOOLEAN -> {
                type = GraphQLBoolean;
                alwaysSet = !f.isNullable();
            }
            case DATE -> {
                type = GraphqlScalars.DATE;
                alwaysSet = false;
            }
            case DATETIME -> {
                type = GraphqlScalars.DATE_TIME;
                alwaysSet = false;
            }
            case JSON -> {
                type = GraphqlScalars.JSON;
                alwaysSet = false;
            }
            case STRING_LIST -> {
                type = GraphQLList.list(GraphQLNonNull.nonNull(GraphQLString));
                alwaysSet = false;
            }
            case INTEGER_LIST -> {
                type = GraphQLList.list(GraphQLNonNull.nonNull(GraphQLInt));
                alwaysSet = false;
            }
            case COMPUTED -> {
                boolean text = f.name.equals("display") || f.name.equals("url") || f.name.equals("display_url");
                type = text ? GraphQLString : GraphqlScalars.JSON;
                alwaysSet = f.name.equals("display");
            }
            default -> {
                type = GraphQLString;
                alwaysSet = !f.isNullable() && !f.isSecret();
            }
        }
        return alwaysSet ? GraphQLNonNull.nonNull(type) : type;
    }

    /** What a foreign key's {@code <name>_id} filter takes: a node of a tree NetBox filters by node, else an ID. */
    private static graphql.schema.GraphQLInputType idFilter(Model target) {
        return TreeNodes.filtersByNode(target) ? ref(TreeNodes.FILTER) : GraphQLID;
    }

    private static boolean nullable(Field f) {
        return f.isNullable() || !f.isRequired();
    }

    private static GraphQLOutputType nonNull(Model target) {
        return GraphQLNonNull.nonNull(ref(GraphqlNames.type(target)));
    }

    private static GraphQLOutputType listOf(String type) {
        return GraphQLNonNull.nonNull(GraphQLList.list(GraphQLNonNull.nonNull(ref(type))));
    }

    private static List<GraphQLArgument> listArguments(Model m) {
        return List.of(
                argument("filters", ref(GraphqlNames.filter(m))), argument("pagination", ref(LookupInputs.PAGINATION)));
    }

    private static GraphQLArgument argument(String name, graphql.schema.GraphQLInputType type) {
        return GraphQLArgument.newArgument().name(name).type(type).build();
    }
}
