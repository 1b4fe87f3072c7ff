package org.sourceoftruth.records.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * PBKDF2-HMAC-SHA256 password hashes in Django's format
 * ({@code pbkdf2_sha256$<iterations>$<salt>$<base64 hash>}), so a NetBox user table can be
 * migrated as it is. The JDK's PBKDF2 implementation does the work. The iteration count of new
 * hashes is configurable (PASSWORD_HASH_ITERATIONS); verification reads it from the hash.
 */
public final class PasswordHasher {
    /** Django 4.2's count; {@link AuthSettings#passwordHashIterations()} is what new hashes use. */
    private static final int ITERATIONS = 600_000;

    private PasswordHasher() {}

    public static String hash(String password) {
        return hash(password, ITERATIONS);
    }

    public static String hash(String password, int iterations) {
        // Django's salt: 22 characters of [A-Za-z0-9]
        String salt = Secrets.randomAlphanumeric(22);
        return "pbkdf2_sha256$" + iterations + "$" + salt + "$" + derive(password, salt, iterations);
    }

    public static boolean verify(String password, String encoded) {
        if (password == null || encoded == null) {
            return false;
        }
        String[] parts = encoded.split("\\$");
        if (parts.length != 4 || !parts[0].equals("pbkdf2_sha256")) {
            return false;
        }
        int iterations;
        try {
            iterations = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            return false;
        }
        if (iterations < 1) {
            return false;
        }
        String expected = derive(password, parts[2], iterations);
        return MessageDigest.isEqual(
                expected.getBytes(StandardCharsets.US_ASCII), parts[3].getBytes(StandardCharsets.US_ASCII));
    }

    private static String derive(String password, String salt, int iterations) {
        try {
            PBEKeySpec spec =
                    new PBEKeySpec(password.toCharArray(), salt.getBytes(StandardCharsets.UTF_8), iterations, 256);
            byte[] key = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                    .generateSecret(spec)
                    .getEncoded();
            return Base64.getEncoder().encodeToString(key);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** 40 hexadecimal characters (160 bits) from a CSPRNG, NetBox's v1 token key. */
    public static String newTokenKey() {
        return Secrets.randomHex(20);
    }
}
