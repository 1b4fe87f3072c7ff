package org.sourceoftruth.records.users;

import jakarta.enterprise.context.RequestScoped;
import java.util.HashMap;
import java.util.Map;

/**
 * The plaintext secrets of the tokens this request created (or gave a new key), by the digest
 * they are stored as: what the response that creates a token shows as {@code token} (and, for a
 * v1 token, as {@code key}), once. They live only as long as the request; no secret is stored
 * (only its digest), so no later read can show it.
 */
@RequestScoped
public class IssuedTokenSecrets {
    private final Map<String, String> byDigest = new HashMap<>();

    void issued(String digest, String plaintext) {
        byDigest.put(digest, plaintext);
    }

    /** The secret of the token stored with this digest if this request issued it, else null. */
    String plaintext(String digest) {
        return digest == null ? null : byDigest.get(digest);
    }
}
