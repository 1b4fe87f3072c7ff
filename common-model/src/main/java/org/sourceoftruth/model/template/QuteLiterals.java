package org.sourceoftruth.model.template;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** Constants of a Jinja template written as Qute literals, as {@link JinjaToQute} emits them. */
final class QuteLiterals {
    private static final Pattern PLAIN_LITERAL = Pattern.compile("[^\\p{Cntrl}]*");

    private QuteLiterals() {}

    /** A literal in Qute syntax; strings Qute cannot quote travel hex-encoded. */
    static String of(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Boolean b) {
            return b.toString();
        }
        if (value instanceof Long l) {
            return l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE ? l.toString() : l + "L";
        }
        if (value instanceof BigInteger big) {
            return "fn:int('" + big + "')";
        }
        if (value instanceof Double d) {
            return "fn:float('" + d + "')";
        }
        String s = (String) value;
        if (PLAIN_LITERAL.matcher(s).matches()) {
            if (s.indexOf('\'') < 0) {
                return "'" + s + "'";
            }
            if (s.indexOf('"') < 0) {
                return "\"" + s + "\"";
            }
        }
        return "fn:unhex('" + HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8)) + "')";
    }
}
