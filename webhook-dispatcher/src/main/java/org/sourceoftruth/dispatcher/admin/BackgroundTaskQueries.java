package org.sourceoftruth.dispatcher.admin;

import com.fasterxml.jackson.core.type.TypeReference;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.model.Json;

/**
 * Reads deliveries as NetBox's background tasks (BackgroundTaskSerializer's fields, RQ's job
 * statuses) followed by the delivery record's own fields, and counts them per queue.
 */
@ApplicationScoped
public class BackgroundTaskQueries {

    private static final TypeReference<List<List<String>>> HEADER_PAIRS = new TypeReference<>() {};

    /** A task's columns, from dispatch.delivery with its rendered request joined in (see {@link #FROM}). */
    private static final String COLUMNS = """
            id, state, change_id, event, model, object_id, request_id, username, event_rule_id, event_rule_name,
            webhook_id, webhook_name, request_method, request_url, r.headers::text as request_headers,
            r.body as request_body, round, attempts, next_attempt_at, last_status, last_error, response_excerpt,
            created, first_attempt_at, last_attempt_at, completed_at, duration_ms, lease_owner, delivery_uuid,
            lane_sequence, change_sequence, """ + TaskStatus.SQL + " as rq_status";

    private static final String FROM =
            " from dispatch.delivery left join dispatch.rendered_request r on r.delivery_id = id";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    DispatcherConfig config;

    public record Page(long count, List<Map<String, Object>> results) {}

    /** @param limit null for no limit */
    public Page list(TaskFilter filter, Integer limit, int offset, String baseUrl) throws SQLException {
        TaskFilter.Sql sql = filter.toSql();
        try (Connection connection = dataSource.getConnection()) {
            long count;
            try (PreparedStatement select =
                    connection.prepareStatement("select count(*) from dispatch.delivery where " + sql.where())) {
                bind(connection, select, sql);
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    count = row.getLong(1);
                }
            }
            List<Map<String, Object>> results = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "select " + COLUMNS + FROM + " where " + sql.where() + " order by id desc limit ? offset ?")) {
                int next = bind(connection, select, sql);
                if (limit == null) {
                    select.setNull(next, java.sql.Types.BIGINT);
                } else {
                    select.setLong(next, limit);
                }
                select.setLong(next + 1, offset);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        results.add(represent(rows, baseUrl));
                    }
                }
            }
            return new Page(count, results);
        }
    }

    /** One task with its attempt history. */
    public Optional<Map<String, Object>> get(long id, String baseUrl) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            Map<String, Object> task;
            try (PreparedStatement select = connection.prepareStatement("select " + COLUMNS + FROM + " where id = ?")) {
                select.setLong(1, id);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        return Optional.empty();
                    }
                    task = represent(row, baseUrl);
                }
            }
            List<Map<String, Object>> attempts = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("""
                    select round, attempt, started_at, duration_ms, status_code, error, response_excerpt
                    from dispatch.delivery_attempt where delivery_id = ? order by id""")) {
                select.setLong(1, id);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        Map<String, Object> attempt = new LinkedHashMap<>();
                        attempt.put("round", rows.getInt(1));
                        attempt.put("attempt", rows.getInt(2));
                        attempt.put("started_at", iso(rows.getTimestamp(3)));
                        attempt.put("duration_ms", rows.getLong(4));
                        attempt.put("status_code", rows.getObject(5));
                        attempt.put("error", rows.getString(6));
                        attempt.put("response_body", rows.getString(7));
                        attempts.add(attempt);
                    }
                }
            }
            task.put("attempt_log", attempts);
            return Optional.of(task);
        }
    }

    private static int bind(Connection connection, PreparedStatement statement, TaskFilter.Sql sql)
            throws SQLException {
        int index = 1;
        for (int i = 0; i < sql.arrays().size(); i++) {
            statement.setArray(
                    index++,
                    connection.createArrayOf(
                            sql.arrayTypes().get(i), sql.arrays().get(i)));
        }
        return index;
    }

    private Map<String, Object> represent(ResultSet row, String baseUrl) throws SQLException {
        long id = row.getLong("id");
        String state = row.getString("state");
        String status = row.getString("rq_status");
        int maxAttempts = config.retry().effectiveMaxAttempts();
        Map<String, Object> task = new LinkedHashMap<>();
        // NetBox's BackgroundTaskSerializer fields, in its order
        task.put("id", id);
        task.put("url", baseUrl + id + "/");
        task.put(
                "description",
                "Webhook " + row.getString("webhook_name") + " for " + row.getString("model") + " "
                        + row.getLong("object_id") + " (" + row.getString("event") + ")");
        task.put("origin", TaskStatus.QUEUE);
        task.put("func_name", "extras.webhooks.send_webhook");
        task.put("args", List.of());
        task.put("kwargs", kwargs(row));
        task.put(
                "result",
                state.equals("succeeded")
                        ? "Status " + row.getObject("last_status") + " returned, webhook successfully processed."
                        : null);
        task.put("timeout", (long) Math.ceil(config.delivery().timeoutSeconds()));
        task.put("result_ttl", config.retentionDays() * 86_400L);
        task.put("created_at", iso(row.getTimestamp("created")));
        task.put("enqueued_at", iso(row.getTimestamp("created")));
        task.put("started_at", iso(row.getTimestamp("first_attempt_at")));
        task.put("ended_at", iso(row.getTimestamp("completed_at")));
        task.put("worker_name", status.equals("started") ? row.getString("lease_owner") : null);
        task.put("position", null);
        task.put("status", status);
        task.put("meta", Map.of());
        task.put("last_heartbeat", null);
        task.put("retries_left", state.equals("queued") ? Math.max(maxAttempts - row.getInt("attempts") - 1, 0) : null);
        task.put("exc_info", state.equals("failed") ? row.getString("last_error") : null);
        for (String rqStatus : TaskStatus.RQ_STATUSES) {
            task.put("is_" + rqStatus, rqStatus.equals(status));
        }
        // the delivery record
        task.put("delivery_state", state);
        task.put("event", row.getString("event"));
        task.put("model", row.getString("model"));
        task.put("object_id", row.getLong("object_id"));
        task.put("change_id", row.getString("change_id"));
        task.put("change_sequence", row.getObject("change_sequence"));
        task.put("delivery_id", row.getString("delivery_uuid"));
        task.put("sequence", row.getObject("lane_sequence"));
        task.put("request_id", row.getString("request_id"));
        task.put("username", row.getString("username"));
        task.put("event_rule_id", row.getLong("event_rule_id"));
        task.put("event_rule_name", row.getString("event_rule_name"));
        task.put("webhook_id", row.getLong("webhook_id"));
        task.put("webhook_name", row.getString("webhook_name"));
        task.put("round", row.getInt("round"));
        task.put("attempts", row.getInt("attempts"));
        task.put("max_attempts", maxAttempts);
        task.put(
                "next_attempt_at",
                state.equals("queued") && !status.equals("deferred") ? iso(row.getTimestamp("next_attempt_at")) : null);
        task.put("last_attempt_at", iso(row.getTimestamp("last_attempt_at")));
        task.put("completed_at", iso(row.getTimestamp("completed_at")));
        task.put("duration_ms", row.getObject("duration_ms"));
        task.put("last_status", row.getObject("last_status"));
        task.put("last_error", row.getString("last_error"));
        task.put("response_body", row.getString("response_excerpt"));
        String url = row.getString("request_url");
        if (url == null) {
            task.put("request", null);
        } else {
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("method", row.getString("request_method"));
            request.put("url", url);
            request.put("headers", headers(row.getString(15)));
            request.put("body", row.getString("request_body"));
            task.put("request", request);
        }
        return task;
    }

    /** send_webhook's keyword arguments in NetBox, as strings (as its serializer shows them). */
    private static Map<String, String> kwargs(ResultSet row) throws SQLException {
        Map<String, String> kwargs = new LinkedHashMap<>();
        kwargs.put("event_rule", row.getString("event_rule_name"));
        kwargs.put("object_type", row.getString("model"));
        kwargs.put("event_type", row.getString("event"));
        kwargs.put("object_id", String.valueOf(row.getLong("object_id")));
        kwargs.put("timestamp", iso(row.getTimestamp("created")));
        kwargs.put("username", row.getString("username"));
        kwargs.put("request_id", row.getString("request_id"));
        return kwargs;
    }

    /** Tasks per RQ status, for the {@code default} queue (the other queues are empty). */
    public Map<String, Long> countByStatus() throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "select " + TaskStatus.SQL + " as s, count(*) from dispatch.delivery group by s")) {
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    counts.put(rows.getString(1), rows.getLong(2));
                }
            }
        }
        return counts;
    }

    /** When the oldest task waiting in the queue (RQ: queued, not scheduled or started) was created. */
    public Optional<Timestamp> oldestQueued() throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "select min(created) from dispatch.delivery where state = 'queued' and " + TaskStatus.SQL
                                + " = 'queued'");
                ResultSet row = select.executeQuery()) {
            row.next();
            return Optional.ofNullable(row.getTimestamp(1));
        }
    }

    private static Map<String, String> headers(String json) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (json == null) {
            return headers;
        }
        try {
            for (List<String> pair : Json.MAPPER.readValue(json, HEADER_PAIRS)) {
                headers.put(pair.get(0), pair.get(1));
            }
        } catch (IOException e) {
            throw new IllegalStateException("stored request headers are not valid JSON", e);
        }
        return headers;
    }

    static String iso(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant().toString();
    }
}
