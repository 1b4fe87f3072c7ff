package org.sourceoftruth.records.graphql;

/**
 * The scripts and stylesheet of the GraphiQL page, from the GraphiQL, React and ReactDOM webjars
 * on the classpath (Quarkus serves every jar's {@code META-INF/resources/}, without
 * authentication: static files never reach the API's filters), and the page's own mount script.
 * GraphiQL's UMD bundle finds React and ReactDOM as globals, so they load first. The versions are
 * the pom's {@code webjar.*.version} properties.
 */
final class GraphiqlAssets {
    static final String GRAPHIQL_VERSION = "2.4.7";
    static final String REACT_VERSION = "18.3.1";
    static final String REACT_JS = "/webjars/react/" + REACT_VERSION + "/umd/react.production.min.js";
    static final String REACT_DOM_JS = "/webjars/react-dom/" + REACT_VERSION + "/umd/react-dom.production.min.js";
    static final String GRAPHIQL_JS = "/webjars/graphiql/" + GRAPHIQL_VERSION + "/graphiql.min.js";
    static final String GRAPHIQL_CSS = "/webjars/graphiql/" + GRAPHIQL_VERSION + "/graphiql.min.css";
    static final String MOUNT_JS = "/static/graphiql.js";

    private GraphiqlAssets() {}
}
