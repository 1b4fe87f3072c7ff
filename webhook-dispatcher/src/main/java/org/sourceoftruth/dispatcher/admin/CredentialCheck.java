package org.sourceoftruth.dispatcher.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import org.jboss.logging.MDC;
import org.sourceoftruth.dispatcher.config.DispatcherConfig;
import org.sourceoftruth.dispatcher.recordsapi.RecordsApiClient;
import org.sourceoftruth.dispatcher.recordsapi.RecordsApiException;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.observability.RequestLog;

/**
 * Who sent a request to the admin API or pages, as records-api says: the credentials the caller
 * presented here (Authorization header, records-api's session and CSRF cookies, the CSRF token of
 * a form or header, the client's address) go to records-api's
 * {@code POST /api/internal/credential-check/}, which checks them with its own code against its
 * own tables (token digests compared in constant time, allowed IPs, expiry, last_used). The
 * dispatcher keeps no users, tokens or sessions.
 *
 * <p>An accepted answer is reused for {@code dispatcher.admin.auth-cache-ttl} (ADMIN_AUTH_CACHE_TTL)
 * for exactly the same credentials, so a browsing session does not ask on every page; refusals
 * are never reused (a token created a moment ago works at once). Only a digest of the
 * credentials is kept as the key.
 */
@ApplicationScoped
public class CredentialCheck {

    static final String PATH = "/api/internal/credential-check/";

    @Inject
    RecordsApiClient recordsApi;

    @Inject
    DispatcherConfig config;

    private volatile Cache<String, Verdict> accepted;

    /** What a request presented; any part may be null. */
    public record Presented(
            String authorization, String session, String csrfToken, String csrfCookie, String clientIp) {}

    /**
     * records-api's answer.
     *
     * @param caller    the authenticated user; null for an anonymous or refused caller
     * @param bySession the caller was authenticated by records-api's login session, not a token
     * @param refusal   NetBox's 403 message when credentials were presented and refused, else null
     * @param csrfValid the presented CSRF token is the cookie's and the session's
     */
    public record Verdict(Caller caller, boolean bySession, String refusal, boolean csrfValid) {}

    public Verdict check(Presented presented) throws RecordsApiException {
        Verdict verdict = verdict(presented);
        if (verdict.caller() != null) {
            MDC.put(RequestLog.USER, verdict.caller().username()); // the request's log context
        }
        return verdict;
    }

    private Verdict verdict(Presented presented) throws RecordsApiException {
        String key = digest(presented);
        Verdict cached = cache().getIfPresent(key);
        if (cached != null) {
            return cached;
        }
        ObjectNode body = Json.MAPPER
                .createObjectNode()
                .put("authorization", presented.authorization())
                .put("session", presented.session())
                .put("csrf_token", presented.csrfToken())
                .put("csrf_cookie", presented.csrfCookie())
                .put("client_ip", presented.clientIp());
        JsonNode answer = recordsApi.post(PATH, body);
        JsonNode user = answer.path("user");
        Caller caller = user.isObject()
                ? new Caller(
                        user.path("id").asLong(),
                        user.path("username").asText(),
                        user.path("is_superuser").asBoolean(),
                        user.path("write_enabled").asBoolean())
                : null;
        JsonNode refusal = answer.get("detail");
        Verdict verdict = new Verdict(
                caller,
                "session".equals(answer.path("authenticated_by").asText()),
                refusal == null || refusal.isNull() ? null : refusal.asText(),
                answer.path("csrf_valid").asBoolean());
        if (caller != null) {
            cache().put(key, verdict);
        }
        return verdict;
    }

    private Cache<String, Verdict> cache() {
        Cache<String, Verdict> current = accepted;
        if (current == null) {
            synchronized (this) {
                if (accepted == null) {
                    accepted = Caffeine.newBuilder()
                            .expireAfterWrite(config.admin().authCacheTtl())
                            .maximumSize(10_000)
                            .build();
                }
                current = accepted;
            }
        }
        return current;
    }

    /** SHA-256 over the parts, each length-prefixed so that no two different requests collide. */
    private static String digest(Presented presented) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String part : Arrays.asList(
                    presented.authorization(),
                    presented.session(),
                    presented.csrfToken(),
                    presented.csrfCookie(),
                    presented.clientIp())) {
                byte[] bytes = part == null ? new byte[0] : part.getBytes(StandardCharsets.UTF_8);
                sha.update((byte) (part == null ? 0 : 1));
                sha.update(java.nio.ByteBuffer.allocate(4).putInt(bytes.length).array());
                sha.update(bytes);
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }
}
