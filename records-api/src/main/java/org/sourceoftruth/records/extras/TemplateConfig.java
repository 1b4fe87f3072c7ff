package org.sourceoftruth.records.extras;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * The budget of one rendering of an export or config template (TEMPLATE_RENDER_*): exceeding one
 * ends that request with a 400 naming the limit, and nothing else.
 */
@ConfigMapping(prefix = "sot.template")
public interface TemplateConfig {
    /** Wall-clock time of one rendering. */
    @WithDefault("5s")
    Duration timeout();

    /** Lookups, function calls and loop iterations of one rendering. */
    @WithDefault("2000000")
    long maxSteps();

    /** Characters of the rendered text. */
    @WithDefault("16777216")
    int maxChars();

    /** Approximate bytes of the strings, lists and maps one rendering builds. */
    @WithDefault("134217728")
    long maxMemoryBytes();
}
