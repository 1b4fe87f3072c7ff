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
 * @param request   the HTTP request that made the change (NetBox 4.6's {@code request}: id,
 *                  method, path, user); absent for a change no request made
 * @param truncated true when the event was too large for the topic and records-api published a
 *                  reduced form: long strings in {@code data} and the snapshots are cut short, or
 *                  (when that is still too large) {@code data} keeps only id, url and display and
 *                  the snapshots are null. The full change stays readable at
 *                  {@code /api/core/object-changes/<sequence>/}. Absent (false) on complete events.
 * @param rulesVersion the version of the event rules and webhooks in force when the change was
 *                  recorded: every change of a model in {@link #RULE_MODELS} moves it on by one, in
 *                  commit order, and carries its new value. A consumer matches the event against the
 *                  rules as they were at this version. Null on events recorded before versions existed.
 * @param schemaVersion the version of this payload's schema ({@value #SCHEMA_VERSION} for the form
 *                  described here, see the AsyncAPI document); 0 when absent (events published
 *                  before the field existed, which lack rules_version too)
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

        @JsonProperty("request") @JsonInclude(JsonInclude.Include.NON_NULL)
        Request request,

        @JsonProperty("truncated") @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        boolean truncated,

        @JsonProperty("rules_version") @JsonInclude(JsonInclude.Include.NON_NULL)
        Long rulesVersion,

        @JsonProperty("schema_version") int schemaVersion) {

    /** The version of the payload schema this class writes. */
    public static final int SCHEMA_VERSION = 1;

    /**
     * The models whose changes decide which webhooks a change fires: each of their changes moves
     * the rules version on ({@link #rulesVersion}).
     */
    public static final java.util.Set<String> RULE_MODELS = java.util.Set.of("extras.eventrule", "extras.webhook");

    public static final String CREATED = "created";
    public static final String UPDATED = "updated";
    public static final String DELETED = "deleted";

    /** A complete (not truncated) event without request or rules version, of the current schema. */
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
        this(
                changeId,
                sequence,
                event,
                model,
                objectId,
                timestamp,
                username,
                requestId,
                data,
                snapshots,
                (Request) null,
                (Long) null);
    }

    /** A complete (not truncated) event of the current schema, without a rules version. */
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
            Snapshots snapshots,
            Request request) {
        this(
                changeId, sequence, event, model, objectId, timestamp, username, requestId, data, snapshots, request,
                null);
    }

    /** A complete (not truncated) event of the current schema, without its request. */
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
            Snapshots snapshots,
            Long rulesVersion) {
        this(
                changeId,
                sequence,
                event,
                model,
                objectId,
                timestamp,
                username,
                requestId,
                data,
                snapshots,
                null,
                rulesVersion);
    }

    /** A complete (not truncated) event of the current schema. */
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
            Snapshots snapshots,
            Request request,
            Long rulesVersion) {
        this(
                changeId,
                sequence,
                event,
                model,
                objectId,
                timestamp,
                username,
                requestId,
                data,
                snapshots,
                request,
                false,
                rulesVersion,
                SCHEMA_VERSION);
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
                request,
                true,
                rulesVersion,
                schemaVersion);
    }

    /** This event, stamped with the rules version it is to be matched at. */
    public ChangeEvent withRulesVersion(Long version) {
        return new ChangeEvent(
                changeId,
                sequence,
                event,
                model,
                objectId,
                timestamp,
                username,
                requestId,
                data,
                snapshots,
                request,
                truncated,
                version,
                schemaVersion);
    }

    /**
     * The HTTP request behind a change, as NetBox 4.6's webhooks show it: the request id, the
     * method, the path without query and the user ({@code str(user)}, the username).
     */
    public record Request(
            @JsonProperty("id") String id,
            @JsonProperty("method") String method,
            @JsonProperty("path") String path,
            @JsonProperty("user") String user) {}

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
