package org.sourceoftruth.records.auth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agroal.api.AgroalDataSource;
import io.quarkus.scheduler.Scheduled;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.SystemTables;
import org.sourceoftruth.records.web.ApiException;

/**
 * Failed sign-ins counted per username and per client address (docs/sign-in-throttle.md): once
 * one of them has failed more than its limit within the failure window, its sign-ins are refused
 * with 429 and {@code Retry-After} until the window, which starts at its first failure, has
 * passed; no password is checked for them. Every password check goes through this: the session
 * sign-in ({@code /login/}) and token provisioning ({@code /api/users/tokens/provision/}).
 *
 * <p>The counts are rows of users_signin_attempt, so that every replica sees the same ones. An
 * attempt is counted before its password is checked, in one statement that locks the rows, so
 * parallel attempts cannot all slip under the limit; a successful sign-in then forgets its
 * username's failures and takes its own attempt back from its address's count.
 */
@ApplicationScoped
public class SignInThrottle {
    @Inject
    AgroalDataSource dataSource;

    @Inject
    SignInConfig config;

    /** The throttle's numbers; replaceable at run time (tests), as {@link AuthSettings}. */
    public record Limits(int perUser, int perAddress, Duration window) {
        public Limits {
            if (perUser < 1 || perAddress < 1 || window.isNegative() || window.isZero()) {
                throw new IllegalStateException("sign-in throttle: limits must be positive (SIGN_IN_*)");
            }
        }
    }

    private volatile Limits limits;

    @PostConstruct
    void load() {
        limits = new Limits(config.maxFailuresPerUser(), config.maxFailuresPerAddress(), config.failureWindow());
    }

    public void limits(Limits l) {
        limits = l;
    }

    /** Back to the configured limits. */
    public void reset() {
        load();
    }

    /** One sign-in attempt, counted; tell it how it ended. */
    public final class Attempt {
        private final String user;
        private final String address;

        private Attempt(String user, String address) {
            this.user = user;
            this.address = address;
        }

        /** The password was right: the username's failures are forgotten, the address's count loses this attempt. */
        public void succeeded() {
            update(
                    "with forgotten as (delete from " + SystemTables.USERS_SIGNIN_ATTEMPT + " where subject = ?)"
                            + " update " + SystemTables.USERS_SIGNIN_ATTEMPT
                            + " set attempts = greatest(attempts - 1, 0) where subject = ?",
                    user,
                    address == null ? "" : address);
        }

        /** The password could not be checked (the hashing pool was full): the attempt does not count. */
        public void withdrawn() {
            update(
                    "update " + SystemTables.USERS_SIGNIN_ATTEMPT
                            + " set attempts = greatest(attempts - 1, 0) where subject = any(?)",
                    new Db.SqlArray("text", subjects(user, address)));
        }
    }

    /**
     * Counts an attempt to sign in as {@code username} from {@code client}; 429 with
     * Retry-After when the username or the address is over its limit.
     */
    public Attempt begin(String username, Optional<ClientIp> client) {
        Limits l = limits;
        // no username is longer than 150 characters; a longer one is counted by its digest (an
        // index entry holds ~2,700 bytes)
        String user = "user:" + (username.length() <= 150 ? username : "sha256:" + TokenDigests.unkeyed(username));
        String address =
                client.map(ip -> "address:" + ip.address().getHostAddress()).orElse(null);
        String window = l.window().toMillis() + " milliseconds";
        List<Row> counted;
        try (Connection c = dataSource.getConnection()) {
            // subjects in one order (sorted) so that parallel attempts lock their rows alike
            counted = new Db(c)
                    .query(
                            "insert into " + SystemTables.USERS_SIGNIN_ATTEMPT
                                    + " as a (subject, window_start, attempts)"
                                    + " select s, now(), 1 from unnest(?::text[]) as s order by s"
                                    + " on conflict (subject) do update set"
                                    + " attempts = case when a.window_start <= now() - ?::interval then 1"
                                    + " else a.attempts + 1 end,"
                                    + " window_start = case when a.window_start <= now() - ?::interval then now()"
                                    + " else a.window_start end"
                                    + " returning subject, attempts,"
                                    + " ceil(extract(epoch from a.window_start + ?::interval - now()))::int as retry_after",
                            new Db.SqlArray("text", subjects(user, address)),
                            window,
                            window,
                            window);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
        int retryAfter = 0;
        for (Row r : counted) {
            int limit = r.str("subject").equals(user) ? l.perUser() : l.perAddress();
            // attempts counts this one too: over the limit means `limit` failures came before it
            if (r.longValue("attempts") > limit) {
                retryAfter = Math.max(
                        retryAfter, Math.max(1, r.longValue("retry_after").intValue()));
            }
        }
        if (retryAfter > 0) {
            throw throttled(retryAfter);
        }
        return new Attempt(user, address);
    }

    /** DRF's answer to a throttled request: 429, Retry-After, "Request was throttled. Expected available in N seconds." */
    public static ApiException throttled(int seconds) {
        return new ApiException(429, throttledBody(seconds)).withHeader("Retry-After", String.valueOf(seconds));
    }

    static ObjectNode throttledBody(int seconds) {
        return Json.MAPPER
                .createObjectNode()
                .put(
                        "detail",
                        "Request was throttled. Expected available in " + seconds
                                + (seconds == 1 ? " second." : " seconds."));
    }

    /** Rows of windows long past are of no use to anyone. */
    @Scheduled(every = "10m", delayed = "10m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void purge() {
        update(
                "delete from " + SystemTables.USERS_SIGNIN_ATTEMPT + " where window_start <= now() - ?::interval",
                limits.window().toMillis() + " milliseconds");
    }

    private static List<String> subjects(String user, String address) {
        List<String> out = new ArrayList<>(2);
        out.add(user);
        if (address != null) {
            out.add(address);
        }
        return out;
    }

    private void update(String sql, Object... params) {
        try (Connection c = dataSource.getConnection()) {
            new Db(c).update(sql, params);
        } catch (SQLException e) {
            throw new Db.DbException(e);
        }
    }
}
