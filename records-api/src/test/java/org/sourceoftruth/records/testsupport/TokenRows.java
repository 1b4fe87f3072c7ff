package org.sourceoftruth.records.testsupport;

import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;
import org.sourceoftruth.records.auth.TokenDigests;
import org.sourceoftruth.records.auth.TokenPeppers;

/** Finding a v1 token's row by its key, of which only the digest is stored (auth.TokenDigests). */
public final class TokenRows {
    private TokenRows() {}

    /** The digest records-api stores the key as under this test run's configuration: its current pepper's HMAC, else SHA-256. */
    public static String digest(String key) {
        Map.Entry<Integer, String> current = TokenPeppers.parse(ConfigProvider.getConfig()
                        .getOptionalValues("sot.tokens.peppers", String.class)
                        .orElse(List.of()))
                .lastEntry();
        return current == null ? TokenDigests.unkeyed(key) : TokenPeppers.hmac(current.getValue(), key);
    }
}
