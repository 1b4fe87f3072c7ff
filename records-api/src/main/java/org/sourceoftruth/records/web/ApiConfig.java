package org.sourceoftruth.records.web;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How the REST API answers: NetBox's API_VERSION, PAGINATE_COUNT, MAX_PAGE_SIZE and
 * STRICT_FILTERING (environment variables of the same names, see application.properties).
 */
@ConfigMapping(prefix = "sot")
public interface ApiConfig {
    /** The {@code API-Version} header and the API root's version. */
    String apiVersion();

    /** Page size when a list request gives no {@code limit}. */
    @WithDefault("50")
    int paginateCount();

    /** Largest page a client may ask for ({@code limit=0} gets this many). */
    @WithDefault("1000")
    int maxPageSize();

    /** Unknown filter parameters answer 400 instead of being ignored (NetBox's STRICT_FILTERING). */
    @WithDefault("false")
    boolean strictFiltering();

    /** Settings for tests and debugging. */
    Debug debug();

    interface Debug {
        /** Report each request's SQL statement count in {@code X-SQL-Statements} (tests only). */
        @WithDefault("false")
        boolean statementCountHeader();
    }
}
