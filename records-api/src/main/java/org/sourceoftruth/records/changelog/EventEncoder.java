package org.sourceoftruth.records.changelog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.databind.util.RawValue;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;

/**
 * Turns a change event into the bytes the relay publishes, within a size ceiling. An event that is
 * larger is published in a reduced form flagged {@code "truncated": true} (see
 * {@link ChangeEvent#truncated()}), so the change id, the object and the action still reach the
 * dispatcher and the full change stays readable from the change log. Two reductions, the first
 * that fits wins:
 * <ol>
 * <li>every string longer than {@value #KEPT_CHARS} characters in {@code data} and the snapshots
 * is cut to that many (a huge comment or description is the usual culprit);</li>
 * <li>{@code data} keeps only id, url and display, and the snapshots are dropped (huge structures
 * of many small values, such as a config context's data).</li>
 * </ol>
 * The size is measured on the serialized event, before compression, which is what the producer
 * compares with max.request.size.
 */
final class EventEncoder {

    /** Characters a reduced event keeps of each long string. */
    static final int KEPT_CHARS = 1024;
    /** What the smallest form keeps of {@code data}. */
    private static final String[] IDENTITY_FIELDS = {"id", "url", "display"};

    /** The bytes to publish; {@code truncated} when they are a reduced form of the event. */
    record Encoded(byte[] bytes, boolean truncated) {}

    /** An event that does not fit even in its smallest form. */
    static final class TooLargeException extends Exception {
        TooLargeException(String message) {
            super(message);
        }
    }

    private final int maxBytes;

    EventEncoder(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The event as it is when it fits, else its first reduced form that does. */
    Encoded encode(ChangeEvent event) throws TooLargeException {
        byte[] full = Json.toBytes(event);
        if (full.length <= maxBytes) {
            return new Encoded(full, false);
        }
        return reduce(event, full.length);
    }

    /**
     * A reduced form of the event even if the full one is under the ceiling: for when Kafka
     * refused the full one (the topic or broker allows less than the ceiling).
     */
    Encoded encodeReduced(ChangeEvent event) throws TooLargeException {
        return reduce(event, Json.toBytes(event).length);
    }

    private Encoded reduce(ChangeEvent event, int fullSize) throws TooLargeException {
        ChangeEvent.Snapshots snapshots = event.snapshots();
        JsonNode data = parsed(event.data());
        byte[] trimmed = Json.toBytes(event.truncatedTo(
                trimStrings(data),
                snapshots == null
                        ? null
                        : new ChangeEvent.Snapshots(
                                trimStrings(parsed(snapshots.prechange())),
                                trimStrings(parsed(snapshots.postchange())))));
        if (trimmed.length <= maxBytes) {
            return new Encoded(trimmed, true);
        }
        byte[] identity = Json.toBytes(event.truncatedTo(identity(data), null));
        if (identity.length <= maxBytes) {
            return new Encoded(identity, true);
        }
        throw new TooLargeException("the event is " + fullSize + " bytes and even reduced to the object's identity "
                + identity.length + " bytes, more than the ceiling of " + maxBytes + " (sot.outbox.max-event-bytes)");
    }

    /**
     * The tree of a node the relay passes through as raw JSON text (a change-log column as
     * PostgreSQL sent it, see PendingChange), so that it can be cut down; other nodes as they are.
     */
    static JsonNode parsed(JsonNode node) {
        if (node instanceof POJONode pojo && pojo.getPojo() instanceof RawValue raw) {
            try {
                return Json.MAPPER.readTree(String.valueOf(raw.rawValue()));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("change-log row holds invalid JSON", e);
            }
        }
        return node;
    }

    /** A copy with every string longer than KEPT_CHARS cut to that length; null stays null. */
    static JsonNode trimStrings(JsonNode node) {
        return node == null ? null : trimmed(node.deepCopy());
    }

    /** The node with its long strings cut: containers in place, a long string replaced. */
    private static JsonNode trimmed(JsonNode node) {
        if (node.isTextual() && node.textValue().length() > KEPT_CHARS) {
            return TextNode.valueOf(node.textValue().substring(0, KEPT_CHARS));
        }
        if (node instanceof ObjectNode object) {
            object.fields().forEachRemaining(field -> field.setValue(trimmed(field.getValue())));
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, trimmed(array.get(i)));
            }
        }
        return node;
    }

    /** The id, url and display of the object's representation (display cut like any long string). */
    private static JsonNode identity(JsonNode data) {
        ObjectNode identity = Json.MAPPER.createObjectNode();
        if (data != null && data.isObject()) {
            for (String field : IDENTITY_FIELDS) {
                if (data.has(field)) {
                    identity.set(field, trimStrings(data.get(field)));
                }
            }
        }
        return identity;
    }
}
