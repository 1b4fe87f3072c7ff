package org.sourceoftruth.records.changelog;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.db.TimeOrderedUuids;
import org.sourceoftruth.records.model.SystemTables;

/**
 * Writes change-log rows inside the caller's write transaction. The change-log table is also the
 * transactional outbox: a row commits together with the change it describes (or not at all), and
 * {@link OutboxRelay} publishes it to Kafka afterwards. Nothing here talks to Kafka, so writes
 * keep working while the broker is away.
 *
 * <p>Call {@link #record} after the changed object's row is locked or written (SELECT ... FOR
 * UPDATE, or a flushed UPDATE/DELETE): row ids are taken at insert, and holding the object's lock
 * at that moment is what makes the ids of one object follow commit order.
 */
@ApplicationScoped
public class ChangeLogWriter {

    private static final String INSERT_INTO = """
            insert into core_objectchange (change_id, user_id, user_name, request_id, action,
                changed_object_type, changed_object_id, related_object_type, related_object_id,
                object_repr, message, request_method, request_path, prechange_data, postchange_data, event_data,
                rules_version)
            """;
    /** The rules version this transaction sees (see V240): what an ordinary change is stamped with. */
    private static final String RULES_VERSION = "(select version from " + SystemTables.CORE_RULES_VERSION + ")";
    /**
     * Moves the rules version on by one, for a change of a rule or webhook. The row stays locked
     * until this transaction ends: the next such change waits, so versions follow commit order.
     */
    private static final String NEXT_RULES_VERSION =
            "update " + SystemTables.CORE_RULES_VERSION + " set version = version + 1 returning version";
    /**
     * One change record. The user is linked only while the account exists: a user who deletes
     * their own account (or whose account goes in the same request's cascade) is recorded by
     * name, with no link, as NetBox keeps user_name when the user is gone (on delete set null).
     */
    private static final String INSERT = INSERT_INTO
            + "values (?, (select u.id from " + SystemTables.USERS_USER
            + " u where u.id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            + " " + fromUtf8("?") + ", " + fromUtf8("?") + ", " + fromUtf8("?") + ", coalesce(?, " + RULES_VERSION
            + ")) returning id";
    /**
     * Several change records in one statement of 16 array parameters, a column each, inserted in
     * the arrays' order (the user linked as in {@link #INSERT}). One short text, planned once per
     * session: the earlier VALUES list of 1,000 tuples (14,000 parameters and a user subquery per
     * tuple) was parsed and planned at every bulk request, 45 ms of PostgreSQL time per 1,000
     * interfaces.
     */
    private static final String INSERT_ARRAYS = INSERT_INTO
            + """
            select c.change_id, u.id, c.user_name, c.request_id, c.action, c.object_type, c.object_id,
                   c.related_type, c.related_id, c.repr, c.message, c.method, c.path, %s, %s, %s, %s
              from unnest(?::uuid[], ?::bigint[], ?::text[], ?::uuid[], ?::text[], ?::text[], ?::bigint[],
                          ?::text[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bytea[], ?::bytea[],
                          ?::bytea[])
                   with ordinality as c(change_id, user_id, user_name, request_id, action, object_type,
                       object_id, related_type, related_id, repr, message, method, path, pre, post, ev, n)
              left join %s u on u.id = c.user_id
             order by c.n
            returning id, change_id""".formatted(
                    fromUtf8("c.pre"), fromUtf8("c.post"), fromUtf8("c.ev"), RULES_VERSION, SystemTables.USERS_USER);
    /** Element types of {@link #INSERT_ARRAYS}' arrays, in the order of {@link #values}. */
    private static final String[] ARRAY_TYPES = {
        "uuid", "bigint", "text", "uuid", "text", "text", "bigint", "text", "bigint", "text", "text", "text", "text",
        "bytea", "bytea", "bytea"
    };
    /** Change records per multi-row insert (bounds one statement's arrays). */
    private static final int MULTI_ROW_INSERT = 1000;

    private static final String COALESCE = """
            update core_objectchange
               set action = ?, object_repr = ?, message = coalesce(nullif(?, ''), message),
                   postchange_data = %s, event_data = %s, rules_version = coalesce(?, %s)
             where id = ?""".formatted(fromUtf8("?"), fromUtf8("?"), RULES_VERSION);

    /** Key of this bean's per-transaction resource in the synchronization registry. */
    private static final Object ROWS_OF_TRANSACTION = ChangeLogWriter.class.getName() + ".rows";

    private final DataSource dataSource;
    private final TransactionSynchronizationRegistry transactions;

    @Inject
    @io.quarkus.arc.All
    List<ChangeObserver> observers;

    @Inject
    TimeOrderedUuids uuids;

    @Inject
    public ChangeLogWriter(DataSource dataSource, TransactionSynchronizationRegistry transactions) {
        this.dataSource = dataSource;
        this.transactions = transactions;
    }

    /**
     * Records one change in the current transaction and returns its change-log row id.
     *
     * <p>A second change of the same object in the same request and transaction updates the row
     * written first instead of adding one: the first action stands unless the new one is a delete,
     * the first prechange snapshot stays, the postchange snapshot and event data become the new
     * ones. NetBox itself writes one ObjectChange per save but coalesces the <em>events</em> of a
     * request per object (so "create, then set tags" sends one "created" event, #15194). Here one
     * row is one event, since the row is the outbox, so coalescing the events means coalescing
     * the rows; the change log then shows one record per object per request, with the net effect.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public long record(ChangeRecord change) {
        Map<RowKey, WrittenRow> rows = rowsOfThisTransaction();
        RowKey key = new RowKey(change.requestId(), change.objectType(), change.objectId());
        try (Connection connection = dataSource.getConnection()) {
            WrittenRow earlier = rows.get(key);
            if (earlier == null) {
                long id = insert(connection, change);
                rows.put(key, new WrittenRow(id, change.action()));
                observe(List.of(new ChangeObserver.Recorded(change, change.action())));
                return id;
            }
            ChangeAction action = earlier.action().followedBy(change.action());
            coalesce(connection, earlier.id(), action, change);
            rows.put(key, new WrittenRow(earlier.id(), action));
            observe(List.of(new ChangeObserver.Recorded(change, action)));
            return earlier.id();
        } catch (SQLException e) {
            throw new ChangeLogException(
                    "could not write the change log for " + change.objectType() + " " + change.objectId(), e);
        }
    }

    /**
     * Records several changes in the current transaction, as {@link #record} each; changes of
     * objects not yet recorded in this transaction are written with multi-row inserts (a bulk
     * create's change log costs a statement per few hundred objects, not one per object).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void recordAll(List<ChangeRecord> changes) {
        Map<RowKey, WrittenRow> rows = rowsOfThisTransaction();
        List<ChangeRecord> fresh = new ArrayList<>();
        java.util.Set<RowKey> freshKeys = new java.util.HashSet<>();
        for (ChangeRecord change : changes) {
            RowKey key = new RowKey(change.requestId(), change.objectType(), change.objectId());
            // a change of a rule or webhook moves the rules version: written one at a time
            if (rows.containsKey(key) || !freshKeys.add(key) || movesRulesVersion(change)) {
                record(change);
            } else {
                fresh.add(change);
            }
        }
        try (Connection connection = dataSource.getConnection()) {
            for (int from = 0; from < fresh.size(); from += MULTI_ROW_INSERT) {
                List<ChangeRecord> part = fresh.subList(from, Math.min(fresh.size(), from + MULTI_ROW_INSERT));
                List<Long> ids = insertAll(connection, part);
                for (int i = 0; i < part.size(); i++) {
                    ChangeRecord change = part.get(i);
                    rows.put(
                            new RowKey(change.requestId(), change.objectType(), change.objectId()),
                            new WrittenRow(ids.get(i), change.action()));
                }
            }
        } catch (SQLException e) {
            throw new ChangeLogException("could not write the change log for " + fresh.size() + " objects", e);
        }
        if (!fresh.isEmpty()) {
            observe(fresh.stream()
                    .map(c -> new ChangeObserver.Recorded(c, c.action()))
                    .toList());
        }
    }

    private void observe(List<ChangeObserver.Recorded> recorded) {
        for (ChangeObserver observer : observers) {
            observer.recorded(recorded);
        }
    }

    private List<Long> insertAll(Connection connection, List<ChangeRecord> part) throws SQLException {
        if (part.size() == 1) {
            return List.of(insert(connection, part.get(0)));
        }
        int n = part.size();
        Object[][] columns = new Object[ARRAY_TYPES.length][];
        for (int c = 0; c < columns.length; c++) {
            // arrays of their element's class: pgjdbc sends Long[] and UUID[] in binary (an Object[]
            // goes as text, which PostgreSQL parses: 1.5 -> 5.6 ms of bind per 1,000 changes)
            columns[c] = switch (ARRAY_TYPES[c]) {
                case "uuid" -> new UUID[n];
                case "bigint" -> new Long[n];
                case "bytea" -> new byte[n][];
                default -> new String[n];
            };
        }
        Map<UUID, Integer> position = new HashMap<>();
        for (int i = 0; i < n; i++) {
            UUID changeId = uuids.next();
            position.put(changeId, i);
            Object[] row = values(changeId, part.get(i));
            for (int c = 0; c < row.length; c++) {
                columns[c][i] = row[c];
            }
        }
        try (PreparedStatement insert = connection.prepareStatement(INSERT_ARRAYS)) {
            for (int c = 0; c < columns.length; c++) {
                insert.setArray(c + 1, connection.createArrayOf(ARRAY_TYPES[c], columns[c]));
            }
            // the ids by change_id, not by the order of RETURNING, which SQL does not promise
            Long[] ids = new Long[n];
            try (ResultSet generated = insert.executeQuery()) {
                while (generated.next()) {
                    ids[position.get(generated.getObject(2, UUID.class))] = generated.getLong(1);
                }
            }
            return java.util.Arrays.asList(ids);
        }
    }

    private long insert(Connection connection, ChangeRecord change) throws SQLException {
        Long rulesVersion = movesRulesVersion(change) ? nextRulesVersion(connection) : null;
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            Object[] row = values(uuids.next(), change);
            insert.setObject(row.length + 1, rulesVersion, Types.BIGINT);
            for (int c = 0; c < row.length; c++) {
                // a typed null: PostgreSQL infers the type of an untyped one, not always as wanted
                if (row[c] == null) {
                    insert.setNull(
                            c + 1,
                            switch (ARRAY_TYPES[c]) {
                                case "bigint" -> Types.BIGINT;
                                case "bytea" -> Types.BINARY;
                                default -> Types.VARCHAR;
                            });
                } else {
                    insert.setObject(c + 1, row[c]);
                }
            }
            try (ResultSet generated = insert.executeQuery()) {
                generated.next();
                return generated.getLong(1);
            }
        }
    }

    /** A change's 16 column values, in the column order of {@link #INSERT_INTO}. */
    private static Object[] values(UUID changeId, ChangeRecord change) {
        return new Object[] {
            changeId,
            change.userId(),
            change.userName(),
            change.requestId(),
            change.action().value(),
            change.objectType(),
            change.objectId(),
            change.relatedObjectType(),
            change.relatedObjectId(),
            change.objectRepr(),
            change.message(),
            change.requestMethod(),
            change.requestPath(),
            json(change.prechange()),
            json(change.postchange()),
            json(change.eventData())
        };
    }

    private void coalesce(Connection connection, long id, ChangeAction action, ChangeRecord change)
            throws SQLException {
        Long rulesVersion = movesRulesVersion(change) ? nextRulesVersion(connection) : null;
        try (PreparedStatement update = connection.prepareStatement(COALESCE)) {
            update.setString(1, action.value());
            update.setString(2, change.objectRepr());
            update.setString(3, change.message());
            update.setBytes(4, json(change.postchange()));
            update.setBytes(5, json(change.eventData()));
            update.setObject(6, rulesVersion, Types.BIGINT);
            update.setLong(7, id);
            update.executeUpdate();
        }
    }

    /** Whether the change is of an event rule or webhook (see {@link ChangeEvent#RULE_MODELS}). */
    private static boolean movesRulesVersion(ChangeRecord change) {
        return ChangeEvent.RULE_MODELS.contains(change.objectType());
    }

    private static long nextRulesVersion(Connection connection) throws SQLException {
        try (PreparedStatement next = connection.prepareStatement(NEXT_RULES_VERSION);
                ResultSet version = next.executeQuery()) {
            version.next();
            return version.getLong(1);
        }
    }

    @SuppressWarnings("unchecked")
    private Map<RowKey, WrittenRow> rowsOfThisTransaction() {
        Map<RowKey, WrittenRow> rows = (Map<RowKey, WrittenRow>) transactions.getResource(ROWS_OF_TRANSACTION);
        if (rows == null) {
            rows = new HashMap<>();
            transactions.putResource(ROWS_OF_TRANSACTION, rows);
        }
        return rows;
    }

    /**
     * A JSON column's value from its UTF-8 bytes ({@link #json}): pgjdbc sends bytea, and arrays
     * of it, in binary, so the text is neither built as a String nor escaped into an array
     * literal (a bulk create's three JSON texts per object made ~11 MB of garbage per 1,000
     * objects that way); PostgreSQL checks the encoding and the JSON.
     */
    private static String fromUtf8(String bytes) {
        return "convert_from(" + bytes + ", 'UTF8')::json";
    }

    private static byte[] json(JsonNode node) {
        if (node == null) {
            return null;
        }
        try {
            return Json.MAPPER.writeValueAsBytes(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The coalescing key: one row per object per request. */
    private record RowKey(UUID requestId, String objectType, long objectId) {}

    private record WrittenRow(long id, ChangeAction action) {}
}
