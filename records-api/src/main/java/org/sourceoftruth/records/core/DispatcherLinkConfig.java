package org.sourceoftruth.records.core;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;

/** Where records-api reaches the webhook dispatcher for the background-task API (DISPATCHER_URL). */
@ConfigMapping(prefix = "sot")
public interface DispatcherLinkConfig {
    URI dispatcherUrl();

    @WithDefault("30s")
    Duration dispatcherTimeout();
}
