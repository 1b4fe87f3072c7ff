package org.sourceoftruth.dispatcher.admin;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.sourceoftruth.dispatcher.delivery.DeliveryState;

/**
 * The list filters of /api/core/background-tasks/ (status: RQ's or the delivery's). Repeated values of one filter are ORed,
 * different filters ANDed, unknown parameters ignored (NetBox's rules). Bad values give a 400
 * naming the field.
 */
public record TaskFilter(
        List<String> statuses,
        List<Long> webhookIds,
        List<Long> eventRuleIds,
        List<String> models,
        List<String> requestIds,
        List<Long> objectIds,
        List<String> events,
        List<String> deliveryIds,
        List<String> changeIds) {

    /** RQ's statuses (NetBox's) and the dispatcher's own delivery states (queued = every unfinished one). */
    private static final List<String> STATES = java.util.stream.Stream.concat(
                    TaskStatus.RQ_STATUSES.stream(),
                    Arrays.stream(DeliveryState.values()).map(DeliveryState::dbValue))
            .distinct()
            .toList();

    public static TaskFilter from(Map<String, List<String>> query) {
        Map<String, List<String>> errors = new LinkedHashMap<>();
        List<String> statuses = values(query, "status");
        for (String status : statuses) {
            if (!STATES.contains(status.toLowerCase(Locale.ROOT))) {
                errors.put(
                        "status",
                        List.of("Select a valid choice. " + status + " is not one of the available choices."));
            }
        }
        TaskFilter filter = new TaskFilter(
                statuses.stream().map(s -> s.toLowerCase(Locale.ROOT)).toList(),
                numbers(query, "webhook_id", errors),
                numbers(query, "event_rule_id", errors),
                values(query, "model"),
                values(query, "request_id"),
                numbers(query, "object_id", errors),
                values(query, "event"),
                uuids(query, "delivery_id", errors),
                uuids(query, "change_id", errors));
        if (!errors.isEmpty()) {
            throw new ApiException(400, errors);
        }
        return filter;
    }

    private static List<String> values(Map<String, List<String>> query, String name) {
        return query.getOrDefault(name, List.of()).stream()
                .flatMap(v -> Arrays.stream(v.split(",")))
                .map(String::trim)
                .filter(v -> !v.isEmpty())
                .collect(Collectors.toList());
    }

    private static List<Long> numbers(Map<String, List<String>> query, String name, Map<String, List<String>> errors) {
        List<Long> numbers = new ArrayList<>();
        for (String value : values(query, name)) {
            try {
                numbers.add(Long.parseLong(value));
            } catch (NumberFormatException e) {
                errors.put(name, List.of("Enter a whole number."));
            }
        }
        return numbers;
    }

    private static List<String> uuids(Map<String, List<String>> query, String name, Map<String, List<String>> errors) {
        List<String> uuids = new ArrayList<>();
        for (String value : values(query, name)) {
            try {
                uuids.add(java.util.UUID.fromString(value).toString());
            } catch (IllegalArgumentException e) {
                errors.put(name, List.of("Must be a valid UUID."));
            }
        }
        return uuids;
    }

    /** SQL condition and its parameters (arrays bound in order). */
    record Sql(String where, List<Object[]> arrays, List<String> arrayTypes) {}

    Sql toSql() {
        List<String> clauses = new ArrayList<>();
        List<Object[]> arrays = new ArrayList<>();
        List<String> types = new ArrayList<>();
        if (!statuses.isEmpty()) {
            // a value matches either the delivery state or the RQ status
            clauses.add("(state = any(?) or " + TaskStatus.SQL + " = any(?))");
            for (int i = 0; i < 2; i++) {
                arrays.add(statuses.toArray());
                types.add("varchar");
            }
        }
        add(clauses, arrays, types, "webhook_id", webhookIds, "bigint");
        add(clauses, arrays, types, "event_rule_id", eventRuleIds, "bigint");
        add(clauses, arrays, types, "model", models, "varchar");
        add(clauses, arrays, types, "request_id", requestIds, "varchar");
        add(clauses, arrays, types, "object_id", objectIds, "bigint");
        add(clauses, arrays, types, "event", events, "varchar");
        add(clauses, arrays, types, "delivery_uuid", deliveryIds, "uuid");
        add(clauses, arrays, types, "change_id", changeIds, "uuid");
        return new Sql(clauses.isEmpty() ? "true" : String.join(" and ", clauses), arrays, types);
    }

    private static void add(
            List<String> clauses,
            List<Object[]> arrays,
            List<String> types,
            String column,
            List<?> values,
            String type) {
        if (!values.isEmpty()) {
            clauses.add(column + " = any(?)");
            arrays.add(values.toArray());
            types.add(type);
        }
    }
}
