package org.sourceoftruth.dispatcher.delivery;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Batches of rows bound as one text array per column (one statement of fixed text per batch). */
final class TextArrays {
    private TextArrays() {}

    /**
     * Binds one text array per column, from parameter 1 on: the statements unnest them together
     * (casting each to its column type), so a batch of rows is one statement of fixed text.
     *
     * @return the index of the next parameter
     */
    static int bind(Connection connection, PreparedStatement statement, String[]... columns) throws SQLException {
        int p = 0;
        for (String[] column : columns) {
            statement.setArray(++p, connection.createArrayOf("text", column));
        }
        return p + 1;
    }
}
