package org.sourceoftruth.dispatcher.delivery;

import java.util.UUID;
import org.sourceoftruth.dispatcher.template.RenderedRequest;

/**
 * A queued delivery this process holds the lease of.
 *
 * @param attempts     attempts already made in this round
 * @param largeBody    bytes of a body too large to be read with the claim (the request's body is
 *                     null then, and read before it is sent), 0 when the request is whole
 * @param deliveryUuid its identity ({@link DeliveryIdentity}); null only for rows older than it
 * @param laneSequence its number among its lane's deliveries; null for rows older than lanes
 * @param replayId     the replay it belongs to, null for a delivery of the change stream
 */
public record ClaimedDelivery(
        long id,
        int round,
        int attempts,
        RenderedRequest request,
        String targetHost,
        boolean sslVerification,
        String caFilePath,
        long largeBody,
        UUID deliveryUuid,
        UUID changeId,
        Long laneSequence,
        Long replayId) {

    /** A claimed delivery without identity (tests of the claim and outcome machinery). */
    public ClaimedDelivery(
            long id,
            int round,
            int attempts,
            RenderedRequest request,
            String targetHost,
            boolean sslVerification,
            String caFilePath) {
        this(id, round, attempts, request, targetHost, sslVerification, caFilePath, 0, null, null, null, null);
    }

    /** The same delivery with its request's body, once read. */
    public ClaimedDelivery withBody(String body) {
        return new ClaimedDelivery(
                id,
                round,
                attempts,
                new RenderedRequest(request.method(), request.url(), request.headers(), body),
                targetHost,
                sslVerification,
                caFilePath,
                0,
                deliveryUuid,
                changeId,
                laneSequence,
                replayId);
    }
}
