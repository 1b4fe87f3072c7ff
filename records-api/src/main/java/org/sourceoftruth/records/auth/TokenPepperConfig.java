package org.sourceoftruth.records.auth;

import io.smallrye.config.ConfigMapping;
import java.util.List;
import java.util.Optional;

/**
 * NetBox's API_TOKEN_PEPPERS: the secrets token digests are keyed with (v2 tokens' secrets, and
 * here v1 tokens' keys too, see {@link TokenDigests}), as {@code <id>:<secret>} entries
 * (comma-separated; environment variable API_TOKEN_PEPPERS, or a mounted secret through any
 * MicroProfile Config source). New tokens use the highest id; older ids stay so that tokens made
 * with them keep working. Without any, v2 tokens cannot be created and v1 keys are kept as plain
 * SHA-256 digests.
 */
@ConfigMapping(prefix = "sot.tokens")
public interface TokenPepperConfig {
    /** The configuration key of {@link #peppers()}. */
    String PEPPERS = "sot.tokens.peppers";

    /** {@code <id>:<secret>} entries; each secret at least 50 characters, as NetBox requires. */
    Optional<List<String>> peppers();
}
