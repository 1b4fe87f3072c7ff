package org.sourceoftruth.records.auth;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a v1 token's key is kept: never the key, only its digest in {@code hmac_digest} with the
 * id of the pepper that keyed it in {@code pepper_id}, as a v2 token's secret is kept. With
 * API_TOKEN_PEPPERS the digest is the hex HMAC-SHA256 of the key under the current pepper; with
 * none configured it is the key's plain hex SHA-256 ({@code pepper_id} null), which the token's
 * first use once a pepper is configured replaces by the keyed one ({@link TokenAuthenticator}).
 * A key is found in one indexed query whichever pepper made its digest: by all the digests it
 * may have ({@link #candidates}).
 */
@ApplicationScoped
public class TokenDigests {
    @Inject
    TokenPeppers peppers;

    /** A v1 key's digest as stored: hex, and the pepper's id (null: unkeyed). */
    public record Digest(Integer pepperId, String hex) {}

    /** The digest a new v1 key is stored as: under the current pepper, else unkeyed. */
    public Digest of(String key) {
        return peppers.current()
                .map(p -> new Digest(p.id(), TokenPeppers.hmac(p.secret(), key)))
                .orElseGet(() -> new Digest(null, unkeyed(key)));
    }

    /** Every digest {@code key} may be stored as: under each configured pepper, and unkeyed. */
    public List<String> candidates(String key) {
        List<String> out = new ArrayList<>(peppers.all().size() + 1);
        for (Map.Entry<Integer, String> pepper : peppers.all().entrySet()) {
            out.add(TokenPeppers.hmac(pepper.getValue(), key));
        }
        out.add(unkeyed(key));
        return out;
    }

    /** The digest {@code key} has under pepper {@code pepperId} (null: unkeyed); empty when that pepper is gone. */
    public Optional<String> under(Integer pepperId, String key) {
        return pepperId == null ? Optional.of(unkeyed(key)) : peppers.digest(pepperId, key);
    }

    /** Whether a digest made under {@code pepperId} should be made again under the current pepper. */
    public boolean outdated(Integer pepperId) {
        return peppers.current()
                .map(p -> pepperId == null || p.id() != pepperId)
                .orElse(false);
    }

    /** What a v1 token keeps of its key in clear, for its display: the last six characters (NetBox's partial key). */
    public static String tail(String key) {
        return key.length() <= 6 ? "" : key.substring(key.length() - 6);
    }

    /** The hex SHA-256 of the key: its digest while no pepper is configured. */
    public static String unkeyed(String key) {
        return HexFormat.of().formatHex(Secrets.sha256(key));
    }
}
