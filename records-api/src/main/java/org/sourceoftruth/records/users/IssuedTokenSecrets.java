package org.sourceoftruth.records.users;

import jakarta.enterprise.context.RequestScoped;
import java.util.HashMap;
import java.util.Map;

/**
 * The plaintext secrets of the tokens created by this request, by token key: what the response
 * that creates a token shows as {@code token}, once. They live only as long as the request; a
 * v2 secret is never stored (only its HMAC), so no later read can show it.
 */
@RequestScoped
public class IssuedTokenSecrets {
    private final Map<String, String> byKey = new HashMap<>();

    void issued(String key, String plaintext) {
        byKey.put(key, plaintext);
    }

    /** The secret of the token with this key if this request created it, else null. */
    String plaintext(String key) {
        return key == null ? null : byKey.get(key);
    }
}
