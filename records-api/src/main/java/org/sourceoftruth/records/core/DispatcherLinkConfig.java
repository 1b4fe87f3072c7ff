package org.sourceoftruth.records.core;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * Where records-api reaches the webhook dispatcher for the background-task API (DISPATCHER_URL),
 * and where browsers reach its pages (DISPATCHER_PAGES_URL, else the same).
 */
@ConfigMapping(prefix = "sot")
public interface DispatcherLinkConfig {
    URI dispatcherUrl();

    @WithDefault("30s")
    Duration dispatcherTimeout();

    Optional<URI> dispatcherPagesUrl();

    /** The dispatcher's pages' origin as browsers reach it, without a trailing slash. */
    default String pagesOrigin() {
        String text = dispatcherPagesUrl().orElse(dispatcherUrl()).toString();
        return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
    }
}
