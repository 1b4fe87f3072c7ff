package org.sourceoftruth.dispatcher.delivery;

import org.sourceoftruth.dispatcher.template.RenderedRequest;

/**
 * A queued delivery this process holds the lease of.
 *
 * @param attempts attempts already made in this round
 */
public record ClaimedDelivery(
        long id,
        int round,
        int attempts,
        RenderedRequest request,
        String targetHost,
        boolean sslVerification,
        String caFilePath) {}
