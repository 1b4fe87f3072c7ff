package org.sourceoftruth.records.fieldtype;

/**
 * A value that does not fit its field kind. The message is the user-facing wording (NetBox's or
 * DRF's); callers put it under the field or filter name.
 */
public class InvalidValue extends RuntimeException {
    private final boolean pattern;

    public InvalidValue(String message) {
        this(message, false);
    }

    private InvalidValue(String message, boolean pattern) {
        super(message, null, false, false);
        this.pattern = pattern;
    }

    /** A regular expression that does not compile ({@code regex}/{@code iregex} lookups). */
    static InvalidValue pattern(String description) {
        return new InvalidValue("Invalid regular expression: " + description, true);
    }

    /** True when the value was a regular expression that does not compile. */
    public boolean isPattern() {
        return pattern;
    }
}
