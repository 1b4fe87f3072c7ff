package org.sourceoftruth.records.model;

import java.util.List;

/**
 * Read access to the database for declarations that need it (model checks, batch loaders),
 * on the connection and transaction of the current request.
 */
public interface Queries {
    List<Row> query(String sql, Object... params);
}
