package org.sourceoftruth.dispatcher.support;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;

/** Rows in records-api's tables, change events on the topic, and reads of the delivery tables. */
public final class Fixtures implements AutoCloseable {

    /** records-api's default event ceiling (sot.outbox.max-event-bytes). */
    public static final int MAX_EVENT_BYTES = 8 * 1024 * 1024;

    private final KafkaProducer<String, byte[]> producer;
    private final String topic;

    public Fixtures(String bootstrap, String topic) {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        // as records-api's relay publishes: compressed, events up to its ceiling
        properties.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        properties.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, MAX_EVENT_BYTES + 16 * 1024);
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        this.producer = new KafkaProducer<>(properties);
        this.topic = topic;
    }

    public static Fixtures forTests() {
        return new Fixtures(TestInfrastructure.BOOTSTRAP, TestInfrastructure.TOPIC);
    }

    // ------------------------------------------------------------------ records-api rows

    /** A webhook row; null arguments take the table's defaults. */
    public static long webhook(String name, String url, String additionalHeaders, String bodyTemplate, String secret)
            throws SQLException {
        try (Connection connection = TestDatabase.connect();
                PreparedStatement insert = connection.prepareStatement("""
                     insert into extras_webhook(name, payload_url, additional_headers, body_template, secret)
                     values (?, ?, coalesce(?, ''), coalesce(?, ''), coalesce(?, '')) returning id""")) {
            insert.setString(1, name);
            insert.setString(2, url);
            insert.setString(3, additionalHeaders);
            insert.setString(4, bodyTemplate);
            insert.setString(5, secret);
            return single(insert);
        }
    }

    /** TLS settings of a webhook row (records-api's columns). */
    public static void webhookTls(long webhookId, boolean sslVerification, String caFilePath) throws SQLException {
        try (Connection connection = TestDatabase.connect();
                PreparedStatement update = connection.prepareStatement(
                        "update extras_webhook set ssl_verification = ?, ca_file_path = ? where id = ?")) {
            update.setBoolean(1, sslVerification);
            update.setString(2, caFilePath);
            update.setLong(3, webhookId);
            update.executeUpdate();
        }
    }

    public static long eventRule(
            String name, List<String> objectTypes, List<String> eventTypes, String conditionsJson, long webhookId)
            throws SQLException {
        try (Connection connection = TestDatabase.connect();
                PreparedStatement insert = connection.prepareStatement("""
                     insert into extras_eventrule(name, object_types, event_types, conditions, action_type,
                         action_object_type, action_object_id)
                     values (?, ?, ?, ?::jsonb, 'webhook', 'extras.webhook', ?) returning id""")) {
            insert.setString(1, name);
            insert.setArray(2, connection.createArrayOf("text", objectTypes.toArray()));
            insert.setArray(3, connection.createArrayOf("text", eventTypes.toArray()));
            insert.setString(4, conditionsJson);
            insert.setLong(5, webhookId);
            return single(insert);
        }
    }

    public static final List<String> ALL_EVENTS = List.of("object_created", "object_updated", "object_deleted");

    public static long user(String username, boolean superuser, boolean active) throws SQLException {
        try (Connection connection = TestDatabase.connect();
                PreparedStatement insert = connection.prepareStatement("""
                     insert into users_user(username, is_superuser, is_active) values (?, ?, ?) returning id""")) {
            insert.setString(1, username);
            insert.setBoolean(2, superuser);
            insert.setBoolean(3, active);
            return single(insert);
        }
    }

    /**
     * A 40-hex v1 token for the user, stored as records-api stores one without a pepper (its
     * services here have none): the key's hex SHA-256 and its last six characters, no key.
     */
    public static String token(long userId, boolean enabled, OffsetDateTime expires, String... allowedIps)
            throws SQLException {
        String key = (UUID.randomUUID().toString() + UUID.randomUUID())
                .replace("-", "")
                .substring(0, 40);
        try (Connection connection = TestDatabase.connect();
                PreparedStatement insert = connection.prepareStatement("""
                     insert into users_token(user_id, hmac_digest, key_tail, enabled, expires, allowed_ips)
                     values (?, ?, right(?, 6), ?, ?, ?)""")) {
            insert.setLong(1, userId);
            insert.setString(2, tokenDigest(key));
            insert.setString(3, key);
            insert.setBoolean(4, enabled);
            insert.setObject(5, expires);
            insert.setArray(6, connection.createArrayOf("text", allowedIps));
            insert.executeUpdate();
        }
        return key;
    }

    /** How a v1 key is stored without a pepper: its hex SHA-256 (records-api's auth.TokenDigests). */
    public static String tokenDigest(String key) {
        try {
            return java.util.HexFormat.of()
                    .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                            .digest(key.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long single(PreparedStatement statement) throws SQLException {
        try (ResultSet row = statement.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }

    // ------------------------------------------------------------------ change events

    public static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ChangeEvent event(
            String event, String model, long objectId, JsonNode data, JsonNode prechange, JsonNode postchange) {
        return new ChangeEvent(
                UUID.randomUUID(),
                objectId,
                event,
                model,
                objectId,
                OffsetDateTime.of(2026, 8, 20, 10, 0, 0, 123456000, ZoneOffset.UTC),
                "alice",
                UUID.randomUUID().toString(),
                data,
                new ChangeEvent.Snapshots(prechange, postchange));
    }

    public void publish(ChangeEvent event) {
        publishRaw(event.kafkaKey(), Json.toBytes(event));
    }

    /** Sends without waiting for each acknowledgement, then waits for all. */
    public void publishAll(List<ChangeEvent> events) {
        List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
        for (ChangeEvent event : events) {
            sent.add(producer.send(new ProducerRecord<>(topic, event.kafkaKey(), Json.toBytes(event))));
        }
        producer.flush();
        for (java.util.concurrent.Future<?> future : sent) {
            try {
                future.get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("could not publish to " + topic, e);
            }
        }
    }

    public void publishRaw(String key, byte[] value) {
        try {
            producer.send(new ProducerRecord<>(topic, key, value)).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not publish to " + topic, e);
        }
    }

    // ------------------------------------------------------------------ dispatcher tables

    /** Delivery rows of one change event, as column maps, ordered by id. */
    public static List<Map<String, Object>> deliveriesOf(UUID changeId) throws SQLException {
        return rows("select * from dispatch.delivery where change_id = ? order by id", changeId);
    }

    public static List<Map<String, Object>> deliveriesOfRule(long ruleId) throws SQLException {
        return rows("select * from dispatch.delivery where event_rule_id = ? order by id", ruleId);
    }

    public static List<Map<String, Object>> attemptsOf(long deliveryId) throws SQLException {
        return rows("select * from dispatch.delivery_attempt where delivery_id = ? order by id", deliveryId);
    }

    public static boolean processed(UUID changeId) throws SQLException {
        return !rows("select 1 from dispatch.processed_change where change_id = ?", changeId)
                .isEmpty();
    }

    public static List<Map<String, Object>> rows(String sql, Object... parameters) throws SQLException {
        try (Connection connection = TestDatabase.connect();
                PreparedStatement select = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                select.setObject(i + 1, parameters[i]);
            }
            List<Map<String, Object>> result = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                int columns = rows.getMetaData().getColumnCount();
                while (rows.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int c = 1; c <= columns; c++) {
                        row.put(rows.getMetaData().getColumnLabel(c), rows.getObject(c));
                    }
                    result.add(row);
                }
            }
            return result;
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
