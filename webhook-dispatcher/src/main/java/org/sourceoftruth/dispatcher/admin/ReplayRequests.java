package org.sourceoftruth.dispatcher.admin;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.sourceoftruth.dispatcher.replay.ReplayStore;
import org.sourceoftruth.dispatcher.rules.RuleCache;

/**
 * What an operator asks a replay for, read and checked: from the API's JSON body or the page's
 * form, with the same rules and field errors. One webhook (known, with an enabled rule sending
 * to it); either one change ({@code change_id}) or a time range ({@code since}, optional
 * {@code until}); optional object types; a rate of deliveries per second (1-1000, default 10).
 */
final class ReplayRequests {

    static final int DEFAULT_RATE = 10;
    static final int MAX_RATE = 1000;
    private static final Set<String> FIELDS = Set.of("webhook", "change_id", "since", "until", "object_types", "rate");
    private static final Pattern OBJECT_TYPE = Pattern.compile("^[a-z][a-z0-9_]*\\.[a-z][a-z0-9_]*$");

    private ReplayRequests() {}

    /** The fields as text (a form's; the JSON body's, turned to text where they are scalars). */
    static ReplayStore.Request parse(Map<String, List<String>> fields, RuleCache rules, String createdBy) {
        Map<String, List<String>> errors = new LinkedHashMap<>();
        for (String name : fields.keySet()) {
            if (!FIELDS.contains(name)) {
                errors.put(name, List.of("Unknown field."));
            }
        }
        Long webhook = null;
        String webhookName = null;
        String rawWebhook = single(fields, "webhook");
        if (rawWebhook == null || rawWebhook.isBlank()) {
            errors.put("webhook", List.of("This field is required."));
        } else {
            try {
                webhook = Long.parseLong(rawWebhook.strip());
                webhookName = rules.webhookName(webhook).orElse(null);
                if (webhookName == null) {
                    errors.put("webhook", List.of("No webhook with id " + webhook + "."));
                } else if (rules.rulesOfWebhook(webhook).isEmpty()) {
                    errors.put("webhook", List.of("No enabled event rule sends to this webhook."));
                }
            } catch (NumberFormatException e) {
                errors.put("webhook", List.of("A valid integer is required."));
            }
        }
        UUID changeId = null;
        String rawChange = single(fields, "change_id");
        if (rawChange != null && !rawChange.isBlank()) {
            try {
                changeId = UUID.fromString(rawChange.strip());
            } catch (IllegalArgumentException e) {
                errors.put("change_id", List.of("Must be a valid UUID."));
            }
        }
        OffsetDateTime since = time(fields, "since", errors);
        OffsetDateTime until = time(fields, "until", errors);
        if (rawChange != null && !rawChange.isBlank() && (since != null || until != null)) {
            errors.put("change_id", List.of("Give either a change_id or a time range (since, until), not both."));
        } else if ((rawChange == null || rawChange.isBlank()) && since == null && !errors.containsKey("since")) {
            errors.put("since", List.of("Give a change_id or the start of a time range."));
        }
        if (since != null && until != null && !until.isAfter(since)) {
            errors.put("until", List.of("Must be after since."));
        }
        List<String> types = new ArrayList<>();
        for (String type : fields.getOrDefault("object_types", List.of())) {
            for (String part : type.split(",")) {
                if (part.isBlank()) {
                    continue;
                }
                if (!OBJECT_TYPE.matcher(part.strip()).matches()) {
                    errors.put("object_types", List.of("\"" + part.strip() + "\" is not an object type (app.model)."));
                } else {
                    types.add(part.strip());
                }
            }
        }
        int rate = DEFAULT_RATE;
        String rawRate = single(fields, "rate");
        if (rawRate != null && !rawRate.isBlank()) {
            try {
                rate = Integer.parseInt(rawRate.strip());
                if (rate < 1 || rate > MAX_RATE) {
                    errors.put("rate", List.of("Ensure this value is between 1 and " + MAX_RATE + "."));
                }
            } catch (NumberFormatException e) {
                errors.put("rate", List.of("A valid integer is required."));
            }
        }
        if (!errors.isEmpty()) {
            throw new ApiException(400, errors);
        }
        return new ReplayStore.Request(
                webhook, webhookName, changeId, since, until, List.copyOf(types), rate, createdBy);
    }

    /** The JSON body as fields: scalars as text, a list of object types as its members. */
    static Map<String, List<String>> fields(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ApiException.detail(400, "The body must be a JSON object.");
        }
        Map<String, List<String>> fields = new LinkedHashMap<>();
        Map<String, List<String>> errors = new LinkedHashMap<>();
        body.fields().forEachRemaining(field -> {
            JsonNode value = field.getValue();
            List<String> values = new ArrayList<>();
            if (value.isNull()) {
                // as absent
            } else if (field.getKey().equals("object_types") && value.isArray()) {
                value.forEach(item -> {
                    if (item.isTextual()) {
                        values.add(item.asText());
                    } else {
                        errors.put("object_types", List.of("Expected a list of strings."));
                    }
                });
            } else if (field.getKey().equals("object_types")) {
                errors.put("object_types", List.of("Expected a list of strings."));
            } else if (value.isValueNode()) {
                values.add(value.asText());
            } else {
                errors.put(field.getKey(), List.of("Expected a single value."));
            }
            fields.put(field.getKey(), values);
        });
        if (!errors.isEmpty()) {
            throw new ApiException(400, errors);
        }
        return fields;
    }

    private static String single(Map<String, List<String>> fields, String name) {
        List<String> values = fields.getOrDefault(name, List.of());
        return values.isEmpty() ? null : values.get(values.size() - 1);
    }

    private static OffsetDateTime time(
            Map<String, List<String>> fields, String name, Map<String, List<String>> errors) {
        String raw = single(fields, name);
        if (raw == null || raw.isBlank()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(raw.strip());
        } catch (DateTimeParseException e) {
            errors.put(name, List.of("Enter a valid date/time with its offset, e.g. 2026-01-31T12:00:00Z."));
            return null;
        }
    }
}
