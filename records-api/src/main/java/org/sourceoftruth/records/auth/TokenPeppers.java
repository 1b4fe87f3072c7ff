package org.sourceoftruth.records.auth;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The peppers of {@link TokenPepperConfig}, checked at start (a malformed or short one stops the
 * service rather than weakening tokens), and the digest a v2 token's secret is stored and
 * checked as: hex HMAC-SHA256 keyed with the pepper, as NetBox's Token.hmac_digest.
 */
@ApplicationScoped
public class TokenPeppers {
    /** NetBox refuses peppers shorter than this. */
    static final int MIN_LENGTH = 50;

    @Inject
    TokenPepperConfig config;

    private final TreeMap<Integer, String> peppers = new TreeMap<>();

    /** The pepper new tokens are made with. */
    public record Pepper(int id, String secret) {}

    @PostConstruct
    void load() {
        peppers.putAll(parse(config.peppers().orElse(java.util.List.of())));
    }

    /** {@code <id>:<secret>} entries by id; a malformed or short one is an IllegalStateException. */
    public static TreeMap<Integer, String> parse(java.util.List<String> entries) {
        TreeMap<Integer, String> out = new TreeMap<>();
        for (String entry : entries) {
            String e = entry.trim();
            if (e.isEmpty()) {
                continue;
            }
            int colon = e.indexOf(':');
            if (colon < 1 || !e.substring(0, colon).matches("\\d{1,4}")) {
                throw new IllegalStateException("API_TOKEN_PEPPERS: each entry must be <id>:<secret>");
            }
            String secret = e.substring(colon + 1);
            if (secret.length() < MIN_LENGTH) {
                throw new IllegalStateException("API_TOKEN_PEPPERS: pepper " + e.substring(0, colon)
                        + " must be at least " + MIN_LENGTH + " characters long");
            }
            out.put(Integer.parseInt(e.substring(0, colon)), secret);
        }
        return out;
    }

    /** Every configured pepper, by id. */
    public Map<Integer, String> all() {
        return java.util.Collections.unmodifiableMap(peppers);
    }

    /** The pepper with the highest id, if any is configured. */
    public Optional<Pepper> current() {
        Map.Entry<Integer, String> last = peppers.lastEntry();
        return last == null ? Optional.empty() : Optional.of(new Pepper(last.getKey(), last.getValue()));
    }

    /** The digest of {@code plaintext} under pepper {@code id}; empty when that pepper is not configured (any more). */
    public Optional<String> digest(int id, String plaintext) {
        String secret = peppers.get(id);
        return secret == null ? Optional.empty() : Optional.of(hmac(secret, plaintext));
    }

    /** Hex HMAC-SHA256 of {@code plaintext} keyed with {@code secret}. */
    public static String hmac(String secret, String plaintext) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(plaintext.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e); // every JDK has HmacSHA256
        }
    }
}
