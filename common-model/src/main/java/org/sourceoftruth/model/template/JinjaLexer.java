package org.sourceoftruth.model.template;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a Jinja template into literal text, {@code {{ expression }}} and
 * {@code {% statement %}} segments, dropping {@code {# comments #}}, applying the whitespace
 * control markers ({@code {{-}, {@code -%}}, ...) and keeping {@code {% raw %}} blocks as text.
 * Settings mirror Jinja's defaults as NetBox uses them unless {@link Whitespace} says otherwise:
 * no trim_blocks, no lstrip_blocks, and a single trailing newline of the template is dropped.
 */
final class JinjaLexer {

    enum Kind {
        TEXT,
        OUTPUT,
        STATEMENT
    }

    /** One piece of the template; {@code content} is trimmed for OUTPUT and STATEMENT. */
    record Segment(Kind kind, String content, int line) {}

    private final String source;
    private final Whitespace whitespace;
    private final List<Segment> segments = new ArrayList<>();
    private int pos;
    private int line = 1;
    private boolean stripNextText;

    private JinjaLexer(String source, Whitespace whitespace) {
        this.source = source;
        this.whitespace = whitespace;
    }

    static List<Segment> split(String template) throws TemplateSyntaxException {
        return split(template, Whitespace.DEFAULT);
    }

    static List<Segment> split(String template, Whitespace whitespace) throws TemplateSyntaxException {
        String source = template;
        if (whitespace.keepTrailingNewline()) {
            // kept
        } else if (source.endsWith("\r\n")) {
            source = source.substring(0, source.length() - 2);
        } else if (source.endsWith("\n")) {
            source = source.substring(0, source.length() - 1);
        }
        JinjaLexer lexer = new JinjaLexer(source, whitespace);
        lexer.run();
        return lexer.segments;
    }

    private void run() throws TemplateSyntaxException {
        StringBuilder text = new StringBuilder();
        int textLine = line;
        while (pos < source.length()) {
            char c = source.charAt(pos);
            if (c == '{' && pos + 1 < source.length() && "{%#".indexOf(source.charAt(pos + 1)) >= 0) {
                char opener = source.charAt(pos + 1);
                boolean stripBefore = pos + 2 < source.length() && source.charAt(pos + 2) == '-';
                boolean keepBefore = pos + 2 < source.length() && source.charAt(pos + 2) == '+';
                if (whitespace.lstripBlocks() && opener != '{' && !stripBefore && !keepBefore) {
                    lstrip(text);
                }
                addText(text.toString(), textLine, stripBefore);
                text.setLength(0);
                readTag(opener);
                textLine = line;
            } else {
                text.append(c);
                advance(1);
            }
        }
        addText(text.toString(), textLine, false);
    }

    private void readTag(char opener) throws TemplateSyntaxException {
        int startLine = line;
        String closer = switch (opener) {
            case '{' -> "}}";
            case '%' -> "%}";
            default -> "#}";
        };
        advance(2);
        if (pos < source.length() && (source.charAt(pos) == '-' || source.charAt(pos) == '+')) {
            advance(1);
        }
        int contentStart = pos;
        int end = findCloser(closer, opener != '#', startLine);
        String content = source.substring(contentStart, end);
        boolean stripAfter = content.endsWith("-");
        if (stripAfter || content.endsWith("+")) {
            content = content.substring(0, content.length() - 1);
        }
        boolean keepAfter =
                content.length() < source.substring(contentStart, end).length() && !stripAfter;
        advance(end + closer.length() - pos);
        stripNextText = stripAfter;
        if (whitespace.trimBlocks() && opener != '{' && !keepAfter && !stripAfter) {
            // trim_blocks: the first newline after a block or comment tag goes
            if (source.startsWith("\r\n", pos)) {
                advance(2);
            } else if (source.startsWith("\n", pos)) {
                advance(1);
            }
        }
        switch (opener) {
            case '{' -> segments.add(new Segment(Kind.OUTPUT, content.trim(), startLine));
            case '%' -> {
                String statement = content.trim();
                if (statement.equals("raw")) {
                    readRaw(startLine);
                } else {
                    segments.add(new Segment(Kind.STATEMENT, statement, startLine));
                }
            }
            default -> {
                // comment: nothing to emit
            }
        }
    }

    /**
     * lstrip_blocks: spaces and tabs between the start of the line and the tag about to be read
     * go, when nothing else precedes the tag on its line.
     */
    private void lstrip(StringBuilder text) {
        int i = pos - 1;
        while (i >= 0 && (source.charAt(i) == ' ' || source.charAt(i) == '\t')) {
            i--;
        }
        int run = pos - 1 - i;
        if (run > 0 && run <= text.length() && (i < 0 || source.charAt(i) == '\n')) {
            text.setLength(text.length() - run);
        }
    }

    /** Finds the closing delimiter, skipping string literals inside expressions and statements. */
    private int findCloser(String closer, boolean quoteAware, int startLine) throws TemplateSyntaxException {
        char quote = 0;
        for (int i = pos; i < source.length(); i++) {
            char c = source.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (quoteAware && (c == '\'' || c == '"')) {
                quote = c;
            } else if (source.startsWith(closer, i)) {
                return i;
            }
        }
        String what = switch (closer) {
            case "}}" -> "expression; missing '}}'";
            case "%}" -> "block tag; missing '%}'";
            default -> "comment; missing '#}'";
        };
        throw new TemplateSyntaxException(startLine, "unexpected end of template inside a " + what);
    }

    /** {@code {% raw %}...{% endraw %}}: everything up to the end tag is literal text. */
    private void readRaw(int startLine) throws TemplateSyntaxException {
        java.util.regex.Matcher end =
                java.util.regex.Pattern.compile("\\{%-?\\s*endraw\\s*[-+]?%}").matcher(source);
        if (!end.find(pos)) {
            throw new TemplateSyntaxException(startLine, "'raw' block is not closed with {% endraw %}");
        }
        String raw = source.substring(pos, end.start());
        int rawLine = line;
        advance(end.end() - pos);
        segments.add(new Segment(Kind.TEXT, raw, rawLine));
    }

    private void addText(String text, int textLine, boolean stripTrailing) {
        String value = text;
        if (stripNextText) {
            value = value.stripLeading();
            stripNextText = false;
        }
        if (stripTrailing) {
            value = value.stripTrailing();
        }
        if (!value.isEmpty()) {
            segments.add(new Segment(Kind.TEXT, value, textLine));
        }
    }

    private void advance(int count) {
        for (int i = 0; i < count && pos < source.length(); i++) {
            if (source.charAt(pos) == '\n') {
                line++;
            }
            pos++;
        }
    }
}
