package org.sourceoftruth.records.auth;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.microprofile.config.ConfigProvider;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;
import org.sourceoftruth.records.model.SystemTables;

/**
 * Flyway migration 181: v1 tokens stored with their key in clear get its digest instead
 * ({@link TokenDigests}: keyed with the current pepper of API_TOKEN_PEPPERS when one is
 * configured, else plain SHA-256), its last six characters for their display, and no key. A
 * Java migration because the pepper is configuration, not data: SQL cannot compute the HMAC.
 * V180 prepared the columns, V182 makes a key in clear impossible.
 */
public class V1TokenKeyDigests implements JavaMigration {
    private final TreeMap<Integer, String> peppers;

    /** With the peppers configured for this service (what Flyway instantiates at start-up). */
    public V1TokenKeyDigests() {
        this(TokenPeppers.parse(ConfigProvider.getConfig()
                .getOptionalValues(TokenPepperConfig.PEPPERS, String.class)
                .orElse(List.of())));
    }

    V1TokenKeyDigests(Map<Integer, String> peppers) {
        this.peppers = new TreeMap<>(peppers);
    }

    @Override
    public MigrationVersion getVersion() {
        return MigrationVersion.fromVersion("181");
    }

    @Override
    public String getDescription() {
        return "v1 token key digests";
    }

    @Override
    public Integer getChecksum() {
        return null;
    }

    @Override
    public boolean canExecuteInTransaction() {
        return true;
    }

    @Override
    public void migrate(Context context) throws SQLException {
        Connection c = context.getConnection();
        Map.Entry<Integer, String> current = peppers.lastEntry();
        try (Statement select = c.createStatement();
                ResultSet rows = select.executeQuery("select id, key from " + SystemTables.USERS_TOKEN
                        + " where version = 1 and key is not null for update");
                PreparedStatement update = c.prepareStatement("update " + SystemTables.USERS_TOKEN
                        + " set hmac_digest = ?, pepper_id = ?, key_tail = ?, key = null where id = ?")) {
            while (rows.next()) {
                String key = rows.getString(2);
                if (current == null) {
                    update.setString(1, TokenDigests.unkeyed(key));
                    update.setNull(2, Types.SMALLINT);
                } else {
                    update.setString(1, TokenPeppers.hmac(current.getValue(), key));
                    update.setInt(2, current.getKey());
                }
                update.setString(3, TokenDigests.tail(key));
                update.setLong(4, rows.getLong(1));
                update.addBatch();
            }
            update.executeBatch();
        }
    }
}
