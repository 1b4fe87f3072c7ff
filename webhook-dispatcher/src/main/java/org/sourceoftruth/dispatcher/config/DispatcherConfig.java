package org.sourceoftruth.dispatcher.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Settings of webhook-dispatcher; see application.properties for the environment variables. */
@ConfigMapping(prefix = "dispatcher")
public interface DispatcherConfig {

    /** Topic of the change events. */
    String changesTopic();

    Retry retry();

    Delivery delivery();

    Template template();

    Rules rules();

    Api api();

    Admin admin();

    RecordsApi recordsApi();

    Memory memory();

    /** Days to keep finished deliveries and processed change ids. */
    @WithDefault("90")
    int retentionDays();

    /** How much of the heap large events and webhook bodies may take at once (docs/memory.md). */
    interface Memory {
        /** The share of the maximum heap (-Xmx), in percent, that they may hold together. */
        @WithDefault("40")
        int heapBudgetPercent();

        /**
         * A stored webhook body larger than this is not read with its delivery's claim, but just
         * before it is sent, under the heap budget.
         */
        @WithDefault("65536")
        int largeBodyBytes();
    }

    interface Retry {
        /** Attempts per delivery, the first included; 0 and 1 both mean one attempt, no retry. */
        int maxAttempts();

        double baseSeconds();

        double maxDelaySeconds();

        /** maxAttempts with 0 read as 1. */
        default int effectiveMaxAttempts() {
            return Math.max(1, maxAttempts());
        }
    }

    interface Delivery {
        double timeoutSeconds();

        int concurrency();

        int perHostConcurrency();

        double leaseMarginSeconds();

        Duration pollInterval();

        default Duration timeout() {
            return Duration.ofMillis(Math.round(timeoutSeconds() * 1000));
        }

        /** How long a claim protects a delivery from other workers. */
        default Duration lease() {
            return timeout().plusMillis(Math.round(leaseMarginSeconds() * 1000));
        }
    }

    /** The budget of rendering one template field, and where rendering runs. */
    interface Template {
        Duration timeout();

        int maxChars();

        /** Lookups, function calls and loop iterations of one rendering. */
        long maxSteps();

        /** Approximate bytes of the values one rendering may build. */
        long maxMemoryBytes();

        /** Threads that render templates (off the Kafka consumer). */
        int concurrency();

        default org.sourceoftruth.model.template.RenderLimits limits() {
            return new org.sourceoftruth.model.template.RenderLimits(
                    timeout(), maxSteps(), maxChars(), maxMemoryBytes());
        }
    }

    interface Rules {
        /** How often every replica reads all webhooks and event rules again (see RuleCache). */
        Duration refreshInterval();
    }

    /**
     * records-api, the owner of webhooks, event rules, users, tokens and sessions: the dispatcher
     * reads them through its API, never from its tables.
     */
    interface RecordsApi {
        /** Base URL for service calls (in Kubernetes its Service), without a trailing slash. */
        String url();

        /** API token of a records-api superuser (RECORDS_API_TOKEN); without it nothing can be read. */
        java.util.Optional<String> token();

        /** Connect plus response time of one call. */
        Duration timeout();
    }

    interface Api {
        int paginateCount();

        int maxPageSize();

        String version();
    }

    /** The background-tasks HTML pages, which accept records-api's login sessions. */
    interface Admin {
        /** Where records-api runs, for the login link shown to anonymous visitors. */
        String recordsApiUrl();

        /** records-api's SESSION_COOKIE_NAME and CSRF_COOKIE_NAME: the same cookies are read here. */
        String sessionCookieName();

        String csrfCookieName();

        /**
         * How long a sign-in records-api confirmed is reused without asking again (a token
         * disabled meanwhile keeps working here for at most this long); refusals are never reused.
         */
        Duration authCacheTtl();

        /**
         * TRUSTED_PROXIES, as records-api's: addresses or prefixes of reverse proxies whose
         * X-Real-IP / X-Forwarded-For name the client; for anyone else the peer is the client.
         */
        java.util.Optional<java.util.List<String>> trustedProxies();
    }
}
