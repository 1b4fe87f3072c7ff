package org.sourceoftruth.records.web;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerResponseContext;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.sourceoftruth.records.db.QueryCounter;

/**
 * When enabled (tests only), reports the SQL statements a request issued in the
 * {@code X-SQL-Statements} header and the round trips that carried them in
 * {@code X-SQL-Round-Trips}, so a test can prove list pages cost a constant number of statements.
 */
public class StatementCountHeader {
    // Looked up on first use: RESTEasy Reactive creates filters during static init, before the
    // runtime configuration (and so the ApiConfig mapping) exists.
    @Inject
    Instance<ApiConfig> config;

    private volatile Boolean enabled;

    @ServerResponseFilter
    public void addHeader(ContainerResponseContext response) {
        Boolean on = enabled;
        if (on == null) {
            on = config.get().debug().statementCountHeader();
            enabled = on;
        }
        if (on) {
            response.getHeaders().putSingle("X-SQL-Statements", String.valueOf(QueryCounter.current()));
            response.getHeaders().putSingle("X-SQL-Round-Trips", String.valueOf(QueryCounter.currentRoundTrips()));
        }
    }
}
