package org.sourceoftruth.records.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Random secrets, their digests and constant-time comparison, for token keys, session keys,
 * CSRF tokens, password salts and the suffixes that make media names unique. Secrets are looked
 * up by their SHA-256 digest (so the database index never compares the secret itself) and then
 * compared with {@link MessageDigest#isEqual}.
 *
 * <p>Each draw takes a {@link SecureRandom} made for it, never one kept in a static field: the
 * native image initialises classes at build time, and a generator created then would be seeded
 * once, on the build machine, and frozen into every executable (native-image refuses it). The
 * default generator on Linux (NativePRNG) reads the operating system's source, which all its
 * instances share, so making one is cheap (and these draws are rare: logins, tokens, uploads).
 */
public final class Secrets {
    private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private Secrets() {}

    /** {@code bytes} random bytes from a CSPRNG, as lower-case hex (twice as many characters). */
    public static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /**
     * {@code length} characters from [A-Za-z0-9] drawn from a CSPRNG (Django's get_random_string:
     * NetBox's v2 token keys and secrets, password salts, media name suffixes).
     */
    public static String randomAlphanumeric(int length) {
        SecureRandom random = new SecureRandom();
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length())));
        }
        return sb.toString();
    }

    /** SHA-256 of the UTF-8 bytes; equals PostgreSQL's {@code sha256(convert_to(s, 'UTF8'))}. */
    public static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }

    /** Equality whose time does not depend on where the two values differ. */
    public static boolean constantTimeEquals(String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
