package org.sourceoftruth.records.graphql;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Limits of the GraphQL API (GRAPHQL_MAX_DEPTH, GRAPHQL_MAX_COMPLEXITY, GRAPHQL_MAX_OBJECTS). */
@ConfigMapping(prefix = "sot.graphql")
public interface GraphqlConfig {
    /** The deepest nesting of fields a query may have; deeper queries are refused before they run. */
    @WithDefault("10")
    int maxDepth();

    /** The most fields a query may select, counted over its whole tree; larger queries are refused. */
    @WithDefault("1000")
    int maxComplexity();

    /**
     * The most objects one list reads: a {@code _list} without a limit returns up to this many, and
     * a relation whose objects at one level of the query exceed it answers an error.
     */
    @WithDefault("1000")
    int maxObjects();
}
