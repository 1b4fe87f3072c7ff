package org.sourceoftruth.dispatcher.rules;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness: DOWN until the webhooks and event rules have been read from records-api once (no
 * change is processed before), with the reason; UP after, also when a later full read fails (the
 * copy is kept, and change events keep it current), with that failure in the data.
 */
@Readiness
@ApplicationScoped
public class RulesHealthCheck implements HealthCheck {

    @Inject
    RuleCache rules;

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response =
                HealthCheckResponse.named("event-rules").status(rules.isLoaded());
        if (rules.isLoaded()) {
            response.withData("webhooks", rules.webhookCount())
                    .withData("event_rules", rules.ruleCount())
                    .withData("active_webhook_rules", rules.activeRuleCount())
                    .withData("last_read", String.valueOf(rules.lastRead()));
        }
        if (rules.lastError() != null) {
            response.withData("last_error", rules.lastError());
        }
        return response.build();
    }
}
