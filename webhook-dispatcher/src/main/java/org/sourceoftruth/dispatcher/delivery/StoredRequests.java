package org.sourceoftruth.dispatcher.delivery;

import com.fasterxml.jackson.core.type.TypeReference;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import org.sourceoftruth.dispatcher.template.RenderedRequest;
import org.sourceoftruth.model.Json;

/** Rendered requests as stored: their rows in dispatch.rendered_request and their headers as JSON pairs. */
final class StoredRequests {
    private static final TypeReference<List<List<String>>> HEADER_PAIRS = new TypeReference<>() {};

    private StoredRequests() {}

    /** Inserts the rendered headers and bodies of deliveries (one statement). */
    static void insert(Connection connection, List<String> deliveryIds, List<String> headers, List<String> bodies)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("""
                insert into dispatch.rendered_request(delivery_id, headers, body)
                select * from unnest(?::text[]::bigint[], ?::text[]::jsonb[], ?::text[])""")) {
            TextArrays.bind(
                    connection,
                    insert,
                    deliveryIds.toArray(String[]::new),
                    headers.toArray(String[]::new),
                    bodies.toArray(String[]::new));
            insert.executeUpdate();
        }
    }

    static String headersJson(List<RenderedRequest.Header> headers) {
        List<List<String>> pairs =
                headers.stream().map(h -> List.of(h.name(), h.value())).toList();
        return new String(Json.toBytes(pairs), StandardCharsets.UTF_8);
    }

    static List<RenderedRequest.Header> parseHeaders(String json) {
        if (json == null) {
            return List.of();
        }
        try {
            return Json.MAPPER.readValue(json, HEADER_PAIRS).stream()
                    .map(pair -> new RenderedRequest.Header(pair.get(0), pair.get(1)))
                    .toList();
        } catch (IOException e) {
            throw new IllegalStateException("stored request headers are not valid JSON", e);
        }
    }
}
