package org.sourceoftruth.records.changelog;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.agroal.api.AgroalDataSource;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.web.AnswersOptions;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;
import org.sourceoftruth.records.web.Responses;

/**
 * The change log as change events, exactly as the relay puts them on the topic (same JSON, same
 * reduction of large events), for superusers: {@code GET /api/core/change-events/}. A consumer
 * reads here what the topic no longer holds, or what it needs before the topic brings it:
 * webhook-dispatcher reads the history of event rules and webhooks here (to match a change against
 * the rules of its version) and the changes it replays to a webhook.
 *
 * <p>Filters (all optional, ANDed): {@code sequence__gt}, {@code sequence__lte} (the change-log id,
 * the event's {@code sequence}), {@code time__gte}, {@code time__lt} (ISO 8601), {@code model}
 * (content types, repeated or comma-separated), {@code change_id} (repeated), {@code
 * rules_version__gt}; {@code limit} (1-1000, default 100). Results are in sequence order; a page
 * also ends early once it holds {@link #PAGE_BYTES} of events (at least one), and {@code next} is
 * the URL of the following page (null after the last): cursor paging, which stays correct while
 * changes are being written. Rows still to be published are included.
 */
@Path("/api/core/change-events/")
@Tag(name = "core")
public class ChangeEventsResource implements AnswersOptions {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;
    /** JSON bytes of change-log data read for one page: bounds the heap a page of large changes takes. */
    static final long PAGE_BYTES = 16L * 1024 * 1024;

    private static final Set<String> PARAMETERS = Set.of(
            "sequence__gt",
            "sequence__lte",
            "time__gte",
            "time__lt",
            "model",
            "change_id",
            "rules_version__gt",
            "limit");

    @Inject
    RequestContext request;

    @Inject
    Access access;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ModelRegistry registry;

    @Inject
    ChangeLogConfig config;

    @Context
    HttpHeaders headers;

    @Context
    UriInfo uri;

    /** The query's filters, parsed. */
    private record Query(
            long after,
            Long until,
            OffsetDateTime since,
            OffsetDateTime before,
            List<String> models,
            List<UUID> changeIds,
            Long rulesVersionAfter,
            int limit) {}

    @GET
    @Operation(
            operationId = "core_change_events_list",
            description = "Changes of the change log as the change events the relay publishes (superusers).")
    public Response list() {
        access.requireSuperuser();
        Query query = parse(uri.getQueryParameters());
        EventEncoder encoder = new EventEncoder(config.outbox().maxEventBytes());
        ArrayNode results = Json.MAPPER.createArrayNode();
        long last = -1;
        boolean more;
        try (Connection connection = dataSource.getConnection()) {
            // read through a cursor, a few rows at a time: a page may hold large changes
            connection.setAutoCommit(false);
            PreparedStatement select = statement(connection, query);
            select.setFetchSize(16);
            long bytes = 0;
            int rows = 0;
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    PendingChange change = new PendingChange(
                            row.getLong(1),
                            row.getObject(2, UUID.class),
                            row.getObject(3, OffsetDateTime.class),
                            row.getString(4),
                            row.getObject(5, UUID.class),
                            row.getString(6),
                            row.getString(7),
                            row.getLong(8),
                            row.getString(9),
                            row.getString(10),
                            row.getString(11),
                            row.getString(13),
                            row.getString(14),
                            (Long) row.getObject(12));
                    byte[] event = encode(encoder, change);
                    results.add(Json.MAPPER
                            .getNodeFactory()
                            .rawValueNode(new RawValue(new String(event, StandardCharsets.UTF_8))));
                    last = change.id();
                    rows++;
                    bytes += row.getLong(15);
                    if (rows == query.limit() || bytes >= PAGE_BYTES) {
                        break;
                    }
                }
                more = (rows == query.limit() || bytes >= PAGE_BYTES) && row.next();
            } finally {
                select.close();
                connection.rollback(); // read only
            }
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("next", more ? nextPage(last) : null);
        body.set("results", results);
        return Responses.json(200, body, headers);
    }

    /** The event as the relay publishes it; one that cannot be made an event gets its reason instead. */
    private static byte[] encode(EventEncoder encoder, PendingChange change) {
        try {
            return encoder.encode(change.toEvent()).bytes();
        } catch (EventEncoder.TooLargeException | RuntimeException e) {
            // as the relay parks it: the consumer learns of the change and why it has no event
            ObjectNode unsendable = Json.MAPPER
                    .createObjectNode()
                    .put("sequence", change.id())
                    .put("change_id", change.changeId().toString())
                    .put("model", change.objectType())
                    .put("object_id", change.objectId())
                    .put("rules_version", change.rulesVersion())
                    .put("error", e.getMessage());
            return Json.toBytes(unsendable);
        }
    }

    private String nextPage(long last) {
        StringBuilder next = new StringBuilder(request.baseUrl()).append("/api/core/change-events/?");
        MultivaluedMap<String, String> parameters = uri.getQueryParameters();
        parameters.forEach((name, values) -> {
            if (!name.equals("sequence__gt")) {
                values.forEach(value -> next.append(encode(name))
                        .append('=')
                        .append(encode(value))
                        .append('&'));
            }
        });
        return next.append("sequence__gt=").append(last).toString();
    }

    private static String encode(String text) {
        return java.net.URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private Query parse(MultivaluedMap<String, String> parameters) {
        Map<String, List<String>> errors = new LinkedHashMap<>();
        for (String name : parameters.keySet()) {
            if (!PARAMETERS.contains(name)) {
                errors.put(
                        name,
                        List.of("Unknown filter; known: "
                                + String.join(", ", PARAMETERS.stream().sorted().toList()) + "."));
            }
        }
        Long after = number(parameters, "sequence__gt", errors);
        Long until = number(parameters, "sequence__lte", errors);
        Long rulesVersionAfter = number(parameters, "rules_version__gt", errors);
        OffsetDateTime since = time(parameters, "time__gte", errors);
        OffsetDateTime before = time(parameters, "time__lt", errors);
        List<String> models = new ArrayList<>();
        for (String model : values(parameters, "model")) {
            if (registry.byContentType(model).isEmpty()) {
                errors.put(
                        "model", List.of("Select a valid choice. " + model + " is not one of the available choices."));
            } else {
                models.add(model);
            }
        }
        List<UUID> changeIds = new ArrayList<>();
        for (String id : values(parameters, "change_id")) {
            try {
                changeIds.add(UUID.fromString(id));
            } catch (IllegalArgumentException e) {
                errors.put("change_id", List.of("Must be a valid UUID."));
            }
        }
        Long limit = number(parameters, "limit", errors);
        if (limit != null && (limit < 1 || limit > MAX_LIMIT)) {
            errors.put("limit", List.of("Ensure this value is between 1 and " + MAX_LIMIT + "."));
        }
        if (!errors.isEmpty()) {
            throw ApiException.fields(errors);
        }
        return new Query(
                after == null ? 0 : after,
                until,
                since,
                before,
                models,
                changeIds,
                rulesVersionAfter,
                limit == null ? DEFAULT_LIMIT : limit.intValue());
    }

    private static List<String> values(MultivaluedMap<String, String> parameters, String name) {
        List<String> values = new ArrayList<>();
        for (String value : parameters.getOrDefault(name, List.of())) {
            for (String part : value.split(",")) {
                if (!part.isBlank()) {
                    values.add(part.strip());
                }
            }
        }
        return values;
    }

    private static Long number(
            MultivaluedMap<String, String> parameters, String name, Map<String, List<String>> errors) {
        List<String> values = parameters.getOrDefault(name, List.of());
        if (values.isEmpty()) {
            return null;
        }
        try {
            long value = Long.parseLong(values.get(values.size() - 1).strip());
            if (value < 0) {
                errors.put(name, List.of("Ensure this value is greater than or equal to 0."));
            }
            return value;
        } catch (NumberFormatException e) {
            errors.put(name, List.of("Enter a whole number."));
            return null;
        }
    }

    private static OffsetDateTime time(
            MultivaluedMap<String, String> parameters, String name, Map<String, List<String>> errors) {
        List<String> values = parameters.getOrDefault(name, List.of());
        if (values.isEmpty()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(values.get(values.size() - 1).strip());
        } catch (DateTimeParseException e) {
            errors.put(name, List.of("Enter a valid date/time with its offset, e.g. 2026-01-31T12:00:00Z."));
            return null;
        }
    }

    /** The statement for the filters given: only their conditions, so that each shape gets its own plan. */
    private static PreparedStatement statement(Connection connection, Query query) throws SQLException {
        List<String> where = new ArrayList<>(List.of("id > ?"));
        List<Object> values = new ArrayList<>(List.of(query.after()));
        if (query.until() != null) {
            where.add("id <= ?");
            values.add(query.until());
        }
        if (query.since() != null) {
            where.add("time >= ?");
            values.add(query.since());
        }
        if (query.before() != null) {
            where.add("time < ?");
            values.add(query.before());
        }
        if (!query.models().isEmpty()) {
            where.add("changed_object_type = any(?)");
            values.add(connection.createArrayOf("varchar", query.models().toArray()));
        }
        if (!query.changeIds().isEmpty()) {
            where.add("change_id = any(?)");
            values.add(connection.createArrayOf("uuid", query.changeIds().toArray()));
        }
        if (query.rulesVersionAfter() != null) {
            where.add("rules_version > ?");
            values.add(query.rulesVersionAfter());
        }
        PreparedStatement select = connection.prepareStatement("""
                select id, change_id, time, user_name, request_id, action, changed_object_type, changed_object_id,
                       event_data::text, prechange_data::text, postchange_data::text, rules_version,
                       request_method, request_path,
                       coalesce(octet_length(event_data::text), 0) + coalesce(octet_length(prechange_data::text), 0)
                           + coalesce(octet_length(postchange_data::text), 0)
                  from core_objectchange
                 where %s
                 order by id
                 limit ?""".formatted(String.join(" and ", where)));
        int p = 0;
        for (Object value : values) {
            select.setObject(++p, value);
        }
        // one row more than the page: whether there is a next page
        select.setInt(++p, query.limit() + 1);
        return select;
    }
}
