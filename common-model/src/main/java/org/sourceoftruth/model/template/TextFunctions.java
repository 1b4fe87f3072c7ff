package org.sourceoftruth.model.template;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Jinja's string filters and str methods with Python semantics (title, capitalize, strip,
 * replace, escape, split, ...), each charging the characters it builds to the render's memory
 * budget ({@link RenderGuard}) before building them.
 */
final class TextFunctions {
    private TextFunctions() {}

    /** Upper bounds of how much longer a string gets, in characters per input character. */
    static final int CASE_CHANGE_GROWTH = 3; // e.g. 'ß'.upper() == 'SS', 'ΐ' becomes 3

    static final int ESCAPE_GROWTH = 5; // '&' becomes "&amp;"
    static final int URLENCODE_GROWTH = 9; // a char of 3 UTF-8 bytes becomes "%xx%xx%xx"

    /** Charges the string a function is about to build from {@code s}, at most {@code growth} times as long. */
    static String charged(String s, int growth) {
        RenderGuard.allocateChars((long) s.length() * growth);
        return s;
    }

    static String concat(String a, String b) {
        RenderGuard.allocateChars((long) a.length() + b.length());
        return a + b;
    }

    static String unhex(String hex) {
        RenderGuard.allocateChars(hex.length() / 2);
        return new String(java.util.HexFormat.of().parseHex(hex), StandardCharsets.UTF_8);
    }

    static String title(String s) {
        StringBuilder out = new StringBuilder(s.length());
        boolean previousIsLetter = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            out.append(previousIsLetter ? Character.toLowerCase(c) : Character.toUpperCase(c));
            previousIsLetter = Character.isLetter(c);
        }
        return out.toString();
    }

    static String capitalize(String s) {
        if (s.isEmpty()) {
            return s;
        }
        return s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1).toLowerCase(Locale.ROOT);
    }

    static String trim(String s, Object chars) {
        if (chars == null || chars == Undefined.INSTANCE) {
            return s.strip();
        }
        String set = PlainValues.str(chars);
        int start = 0;
        int end = s.length();
        while (start < end && set.indexOf(s.charAt(start)) >= 0) {
            start++;
        }
        while (end > start && set.indexOf(s.charAt(end - 1)) >= 0) {
            end--;
        }
        return s.substring(start, end);
    }

    static String replace(String s, String old, String replacement, Integer count) {
        // at most one replacement per character (and one more at the end when old is empty)
        long replacements = old.isEmpty() ? s.length() + 1L : s.length() / old.length();
        if (count != null && count >= 0) {
            replacements = Math.min(replacements, count);
        }
        RenderGuard.allocateChars(s.length() + replacements * Math.max(0, replacement.length() - old.length()));
        if (count == null || count < 0) {
            return s.replace(old, replacement);
        }
        StringBuilder out = new StringBuilder();
        int from = 0;
        for (int done = 0; done < count; done++) {
            int at = s.indexOf(old, from);
            if (at < 0) {
                break;
            }
            out.append(s, from, at).append(replacement);
            from = at + old.length();
            if (old.isEmpty()) {
                if (from < s.length()) {
                    out.append(s.charAt(from));
                }
                from++;
            }
        }
        if (from <= s.length()) {
            out.append(s.substring(Math.min(from, s.length())));
        }
        return out.toString();
    }

    static String escapeHtml(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&#34;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    static int skipWhitespace(String s, int from) {
        int i = from;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    static List<String> split(String s, Object separator, Integer maxSplit) {
        // the parts hold the characters of s, plus a string and a list element each (charged per part)
        RenderGuard.allocateChars(s.length());
        int limit = maxSplit == null || maxSplit < 0 ? Integer.MAX_VALUE : maxSplit;
        List<String> parts = new ArrayList<>();
        if (separator == null || separator == Undefined.INSTANCE) {
            // by index, not by cutting the rest off each time (quadratic on long strings)
            int from = skipWhitespace(s, 0);
            while (from < s.length()) {
                if (parts.size() == limit) {
                    RenderGuard.allocate(RenderGuard.BYTES_PER_ELEMENT + RenderGuard.BYTES_PER_STRING);
                    parts.add(s.substring(from)); // trailing whitespace kept, as in Python
                    return parts;
                }
                int end = from;
                while (end < s.length() && !Character.isWhitespace(s.charAt(end))) {
                    end++;
                }
                RenderGuard.allocate(RenderGuard.BYTES_PER_ELEMENT + RenderGuard.BYTES_PER_STRING);
                parts.add(s.substring(from, end));
                from = skipWhitespace(s, end);
            }
            return parts;
        }
        String sep = PlainValues.str(separator);
        if (sep.isEmpty()) {
            throw new TemplateRenderException("empty separator");
        }
        int from = 0;
        while (parts.size() < limit) {
            int at = s.indexOf(sep, from);
            if (at < 0) {
                break;
            }
            RenderGuard.allocate(RenderGuard.BYTES_PER_ELEMENT + RenderGuard.BYTES_PER_STRING);
            parts.add(s.substring(from, at));
            from = at + sep.length();
        }
        parts.add(s.substring(from));
        return parts;
    }
}
