package org.sourceoftruth.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * One change of one record, as records-api publishes it to the {@value Topics#OBJECT_CHANGES}
 * topic and webhook-dispatcher consumes it. The Kafka key is {@link #kafkaKey()}, so all events
 * of one object land on one partition in commit order. Delivery is at-least-once: consumers
 * de-duplicate by {@link #changeId()}.
 *
 * @param changeId  unique id of this change (the change-log row's change_id)
 * @param sequence  the change-log row id; increases in commit order per object
 * @param event     created, updated or deleted
 * @param model     content type, e.g. {@code dcim.site}
 * @param objectId  primary key of the changed object
 * @param timestamp when the change was committed
 * @param username  user behind the change
 * @param requestId X-Request-ID of the API request that made the change
 * @param data      full REST representation after the change (last state for deletes), with
 *                  relative URLs as NetBox sends it to webhooks
 * @param snapshots prechange / postchange snapshots (NetBox's serialized form)
 * @param truncated true when the event was too large for the topic and records-api published a
 *                  reduced form: long strings in {@code data} and the snapshots are cut short, or
 *                  (when that is still too large) {@code data} keeps only id, url and display and
 *                  the snapshots are null. The full change stays readable at
 *                  {@code /api/core/object-changes/<sequence>/}. Absent (false) on complete events.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record ChangeEvent(
        @JsonProperty("change_id") UUID changeId,
        @JsonProperty("sequence") long sequence,
        @JsonProperty("event") String event,
        @JsonProperty("model") String model,
        @JsonProperty("object_id") long objectId,
        @JsonProperty("timestamp") OffsetDateTime timestamp,
        @JsonProperty("username") String username,
        @JsonProperty("request_id") String requestId,
        @JsonProperty("data") JsonNode data,
        @JsonProperty("snapshots") Snapshots snapshots,

        @JsonProperty("truncated") @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        boolean truncated) {

    public static final String CREATED = "created";
    public static final String UPDATED = "updated";
    public static final String DELETED = "deleted";

    /** A complete (not truncated) event. */
    public ChangeEvent(
            UUID changeId,
            long sequence,
            String event,
            String model,
            long objectId,
            OffsetDateTime timestamp,
            String username,
            String requestId,
            JsonNode data,
            Snapshots snapshots) {
        this(changeId, sequence, event, model, objectId, timestamp, username, requestId, data, snapshots, false);
    }

    /** This event with other data and snapshots, flagged truncated. */
    public ChangeEvent truncatedTo(JsonNode reducedData, Snapshots reducedSnapshots) {
        return new ChangeEvent(
                changeId,
                sequence,
                event,
                model,
                objectId,
                timestamp,
                username,
                requestId,
                reducedData,
                reducedSnapshots,
                true);
    }

    public record Snapshots(
            @JsonProperty("prechange") JsonNode prechange,
            @JsonProperty("postchange") JsonNode postchange) {
        /** A JSON null reads back as Java null, so events compare equal after a round trip. */
        public Snapshots {
            prechange = prechange == null || prechange.isNull() ? null : prechange;
            postchange = postchange == null || postchange.isNull() ? null : postchange;
        }
    }

    /** Kafka record key: {@code <app>.<model>:<id>}, one partition per object. */
    public String kafkaKey() {
        return model + ":" + objectId;
    }

    /** The change-log action (create/update/delete) that corresponds to this event. */
    public static String eventForAction(String action) {
        return switch (action) {
            case "create" -> CREATED;
            case "update" -> UPDATED;
            case "delete" -> DELETED;
            default -> throw new IllegalArgumentException("unknown action " + action);
        };
    }
}
