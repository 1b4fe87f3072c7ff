package org.sourceoftruth.records.net;

/** Small helpers for IP address text as PostgreSQL returns it. */
public final class Networks {
    private Networks() {}

    /** PostgreSQL prints a host inet without its mask (10.0.0.1); NetBox always shows it. */
    public static String withMask(String value) {
        if (value.indexOf('/') >= 0) {
            return value;
        }
        return value + (value.indexOf(':') >= 0 ? "/128" : "/32");
    }
}
