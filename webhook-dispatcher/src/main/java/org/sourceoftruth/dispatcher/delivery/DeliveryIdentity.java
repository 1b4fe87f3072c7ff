package org.sourceoftruth.dispatcher.delivery;

import com.fasterxml.uuid.Generators;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.sourceoftruth.dispatcher.template.RenderedRequest;

/**
 * What every webhook request says about itself, so that a receiver can recognise a repeat and
 * notice a gap (see docs/change-stream.md). The headers are added when the request is sent, over
 * any additional header of the same name; they are the same on every attempt and every re-send of
 * a delivery, and are not covered by {@code X-Hook-Signature} (which signs the body, as NetBox's).
 */
public final class DeliveryIdentity {

    /** The delivery's id: one per change and event rule (and replay), the same on every re-send. */
    public static final String DELIVERY_HEADER = "X-Hook-Delivery";
    /** The change's id in records-api's change log (the event's {@code change_id}). */
    public static final String CHANGE_HEADER = "X-Hook-Change-Id";
    /**
     * The delivery's number among this webhook's deliveries of this object: 1, 2, 3, ... in the
     * order they are sent. A number that skips one means a delivery that finally failed (or was
     * stopped); a number not above the last one seen is a repeat, or a manual requeue.
     */
    public static final String SEQUENCE_HEADER = "X-Hook-Sequence";
    /** Set on the deliveries of a replay: its id. */
    public static final String REPLAY_HEADER = "X-Hook-Replay";

    /** Namespace of the name-based (version 5) delivery ids. */
    private static final UUID NAMESPACE = UUID.fromString("8f3c4b52-6a1e-5d7e-9b0c-2f6e1d4a7c90");

    private DeliveryIdentity() {}

    /**
     * The id of the delivery of {@code changeId} by {@code eventRuleId}: derived from both rather
     * than drawn, so that it is the same whichever replica records it; a replay's deliveries have
     * ids of their own.
     */
    public static UUID deliveryId(UUID changeId, long eventRuleId, Long replayId) {
        // a generator per call (a SHA-1 digest, about a microsecond): none is kept in static
        // state, which a native image would make on the build machine (BuildTimeInitialisationTest)
        return Generators.nameBasedGenerator(NAMESPACE)
                .generate(changeId + "/" + eventRuleId + (replayId == null ? "" : "/replay/" + replayId));
    }

    /** The request with the identity headers put in place of any header of the same name. */
    static RenderedRequest withIdentity(RenderedRequest request, ClaimedDelivery delivery) {
        List<RenderedRequest.Header> identity = new ArrayList<>(4);
        if (delivery.deliveryUuid() != null) {
            identity.add(new RenderedRequest.Header(
                    DELIVERY_HEADER, delivery.deliveryUuid().toString()));
        }
        if (delivery.changeId() != null) {
            identity.add(new RenderedRequest.Header(
                    CHANGE_HEADER, delivery.changeId().toString()));
        }
        if (delivery.laneSequence() != null) {
            identity.add(new RenderedRequest.Header(
                    SEQUENCE_HEADER, delivery.laneSequence().toString()));
        }
        if (delivery.replayId() != null) {
            identity.add(new RenderedRequest.Header(
                    REPLAY_HEADER, delivery.replayId().toString()));
        }
        if (identity.isEmpty()) {
            return request;
        }
        List<RenderedRequest.Header> headers = new ArrayList<>(request.headers().size() + identity.size());
        for (RenderedRequest.Header header : request.headers()) {
            if (identity.stream().noneMatch(own -> own.name().equalsIgnoreCase(header.name()))) {
                headers.add(header);
            }
        }
        headers.addAll(identity);
        return new RenderedRequest(request.method(), request.url(), List.copyOf(headers), request.body());
    }
}
