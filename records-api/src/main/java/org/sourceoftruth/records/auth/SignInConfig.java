package org.sourceoftruth.records.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * The sign-in throttle ({@link SignInThrottle}) and the password-hashing pool
 * ({@link PasswordHashing}); docs/sign-in-throttle.md.
 */
@ConfigMapping(prefix = "sot.sign-in")
public interface SignInConfig {
    /** Sign-in attempts one username may fail within {@link #failureWindow()}; the next ones get 429. */
    @WithDefault("5")
    int maxFailuresPerUser();

    /** Sign-in attempts one client address may fail within {@link #failureWindow()}, whatever the usernames. */
    @WithDefault("20")
    int maxFailuresPerAddress();

    /** How long failures count, from the first one of a series; a throttled client may retry after it. */
    @WithDefault("15m")
    Duration failureWindow();

    /** Threads that compute password hashes (PBKDF2); 0: half the processors, at least one. */
    @WithDefault("0")
    int hashThreads();

    /** Password checks that may wait for a hashing thread; more at once are refused with 429. */
    @WithDefault("2")
    int hashQueue();
}
