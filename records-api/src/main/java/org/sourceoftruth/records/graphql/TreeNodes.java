package org.sourceoftruth.records.graphql;

import static graphql.Scalars.GraphQLID;
import static org.sourceoftruth.records.graphql.LookupInputs.field;

import graphql.schema.GraphQLEnumType;
import graphql.schema.GraphQLInputObjectType;
import graphql.schema.GraphQLNamedType;
import graphql.schema.GraphQLNonNull;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.ExtraFilter;
import org.sourceoftruth.records.model.Model;

/**
 * NetBox's {@code TreeNodeFilter} ({@code {id, match_type}}) on a foreign key onto a tree (a
 * site's region, a device's location): the node itself, its children, descendants, ancestors,
 * parent or siblings, found by following the tree's parent column in SQL.
 */
final class TreeNodes {
    static final String FILTER = "TreeNodeFilter";
    private static final String MATCH = "TreeNodeMatch";
    private static final List<String> MATCHES =
            List.of("EXACT", "DESCENDANTS", "SELF_AND_DESCENDANTS", "CHILDREN", "SIBLINGS", "ANCESTORS", "PARENT");

    /**
     * The trees whose nodes NetBox's filters take as a {@code TreeNodeFilter} (its
     * {@code TreeNodeFilter} annotations: regions, site groups, locations, tenant groups); a
     * reference to a node of another tree (a parent, a device role, a platform) takes an ID. A
     * filter given a node filter on any tree still matches by it.
     */
    private static final java.util.Set<String> BY_NODE =
            java.util.Set.of("dcim.region", "dcim.sitegroup", "dcim.location", "tenancy.tenantgroup");

    private TreeNodes() {}

    static boolean filtersByNode(Model target) {
        return target.treeParent() != null && BY_NODE.contains(target.contentType());
    }

    static List<GraphQLNamedType> types() {
        GraphQLEnumType.Builder match = GraphQLEnumType.newEnum().name(MATCH);
        MATCHES.forEach(m -> match.value(m, m));
        return List.of(
                match.build(),
                GraphQLInputObjectType.newInputObject()
                        .name(FILTER)
                        .field(field("id", GraphQLNonNull.nonNull(GraphQLID)))
                        .field(field("match_type", GraphQLNonNull.nonNull(LookupInputs.ref(MATCH))))
                        .build());
    }

    /** The objects whose {@code column} points at a node of {@code tree} that the filter matches. */
    static ExtraFilter.Sql sql(String column, Model tree, Map<String, Object> filter) {
        Object id = FilterTranslator.id(filter.get("id"));
        if (!(id instanceof Long node)) {
            throw new FilterTranslator.BadFilter("TreeNodeFilter: id must be a number.");
        }
        String t = tree.table();
        String p = tree.field(tree.treeParent()).column();
        String c = "t." + column;
        String match = String.valueOf(filter.get("match_type"));
        return switch (match) {
            case "EXACT" -> new ExtraFilter.Sql(c + " = ?", List.of(node));
            case "CHILDREN" ->
                new ExtraFilter.Sql(c + " in (select n.id from " + t + " n where n." + p + " = ?)", List.of(node));
            case "PARENT" ->
                new ExtraFilter.Sql(c + " = (select n." + p + " from " + t + " n where n.id = ?)", List.of(node));
            case "SIBLINGS" ->
                new ExtraFilter.Sql(
                        c + " in (select n.id from " + t + " n where n." + p + " = (select s." + p + " from " + t
                                + " s where s.id = ?) and n.id <> ?)",
                        List.of(node, node));
            case "ANCESTORS" ->
                new ExtraFilter.Sql(
                        c + " in (with recursive a(id) as (select n." + p + " from " + t + " n where n.id = ?"
                                + " union select n." + p + " from " + t + " n join a on n.id = a.id)"
                                + " select id from a)",
                        List.of(node));
            case "DESCENDANTS", "SELF_AND_DESCENDANTS" ->
                new ExtraFilter.Sql(
                        c + " in (with recursive d(id) as (select ?::bigint union select n.id from " + t + " n"
                                + " join d on n." + p + " = d.id) select id from d"
                                + (match.equals("DESCENDANTS") ? " where id <> ?)" : ")"),
                        match.equals("DESCENDANTS") ? List.of(node, node) : List.of(node));
            default -> throw new FilterTranslator.BadFilter("TreeNodeFilter: unknown match_type " + match + ".");
        };
    }
}
