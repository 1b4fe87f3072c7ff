package org.sourceoftruth.records.auth;

import io.smallrye.config.ConfigMapping;
import java.util.List;
import java.util.Optional;

/**
 * NetBox's API_TOKEN_PEPPERS: the secrets v2 token digests are keyed with, as
 * {@code <id>:<secret>} entries (comma-separated; environment variable API_TOKEN_PEPPERS, or a
 * mounted secret through any MicroProfile Config source). New v2 tokens use the highest id;
 * older ids stay so that tokens made with them keep working. Without any, v2 tokens cannot be
 * created (v1 keys keep working).
 */
@ConfigMapping(prefix = "sot.tokens")
public interface TokenPepperConfig {
    /** {@code <id>:<secret>} entries; each secret at least 50 characters, as NetBox requires. */
    Optional<List<String>> peppers();
}
