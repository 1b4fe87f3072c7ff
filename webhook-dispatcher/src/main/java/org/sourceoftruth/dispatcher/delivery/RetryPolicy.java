package org.sourceoftruth.dispatcher.delivery;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;

/**
 * When to try again: up to WEBHOOK_RETRY_MAX attempts in all, waiting base * 2^(n-1) seconds
 * after attempt n, capped, and scaled by a random 50-100 % so that deliveries that failed
 * together (a receiver outage) do not retry in lockstep.
 */
@ApplicationScoped
public class RetryPolicy {

    @Inject
    DispatcherConfig config;

    /** @param attemptsMade attempts of this round including the one that just failed */
    public boolean mayRetry(int attemptsMade) {
        return attemptsMade < config.retry().effectiveMaxAttempts();
    }

    /** The wait after failed attempt number {@code attemptsMade} (1-based). */
    public Duration delayAfter(int attemptsMade) {
        double exponential = config.retry().baseSeconds() * Math.pow(2, Math.max(0, attemptsMade - 1));
        double capped = Math.min(exponential, config.retry().maxDelaySeconds());
        double jittered = capped * (0.5 + 0.5 * ThreadLocalRandom.current().nextDouble());
        return Duration.ofMillis(Math.round(jittered * 1000));
    }
}
