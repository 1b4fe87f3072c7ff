package org.sourceoftruth.records.api;

import jakarta.ws.rs.container.ContainerResponseContext;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * When enabled (tests only), reports the SQL statements a request issued in the
 * {@code X-SQL-Statements} header, so a test can prove list pages cost a constant number
 * of statements.
 */
public class StatementCountHeader {
    @ConfigProperty(name = "sot.debug.statement-count-header", defaultValue = "false")
    boolean enabled;

    @ServerResponseFilter
    public void addHeader(ContainerResponseContext response) {
        if (enabled) {
            response.getHeaders().putSingle("X-SQL-Statements", String.valueOf(QueryCounter.current()));
        }
    }
}
