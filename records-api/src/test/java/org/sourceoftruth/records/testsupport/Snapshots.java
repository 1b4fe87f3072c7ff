package org.sourceoftruth.records.testsupport;

import io.agroal.api.AgroalDataSource;
import io.quarkus.arc.Arc;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Moves the database's snapshot on: a committed transaction that took a transaction id. The next
 * read then finds nothing kept for its snapshot (NestedObjectCache) and looks every nested
 * object up, so that a test counting a read's statements counts the same work each time.
 */
public final class Snapshots {
    private Snapshots() {}

    public static void moveOn() {
        AgroalDataSource dataSource =
                Arc.container().instance(AgroalDataSource.class).get();
        try (Connection c = dataSource.getConnection();
                Statement st = c.createStatement()) {
            st.execute("select pg_current_xact_id()");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
