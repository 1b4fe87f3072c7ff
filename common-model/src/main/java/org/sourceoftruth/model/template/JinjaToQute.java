package org.sourceoftruth.model.template;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Translates the Jinja templates NetBox users write into Qute source that the sandboxed engine
 * of {@link WebhookTemplates} renders.
 *
 * <ul>
 *   <li>Literal text becomes Qute unparsed text ({@code {|...|}}), so JSON braces stay as typed.</li>
 *   <li>{@code {{ expr }}} becomes an output expression; every operator, filter, test and method
 *       becomes a call of a {@code fn:} function, so Python semantics ({@code a or b} yields a
 *       value, {@code ==} across int and float, ...) hold everywhere.</li>
 *   <li>{@code if/elif/else/endif}, {@code for/else/endfor} (with {@code loop.index} etc. and
 *       {@code for k, v in d.items()}) and {@code set} become Qute sections.</li>
 * </ul>
 * Anything else (macros, includes, calls of arbitrary functions) is refused with a
 * {@link TemplateSyntaxException}.
 */
public final class JinjaToQute {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern BRACKET_KEY = Pattern.compile("[A-Za-z0-9_\\-]+");
    private static final String LOOP_ALIAS_PREFIX = "jinja_loop_";

    private enum BlockType {
        ROOT,
        IF,
        FOR
    }

    /** An open block and the names it binds (loop variables, {@code set} variables). */
    private static final class Block {
        final BlockType type;
        final int line;
        /** loop variables: Jinja name to Qute expression */
        final Map<String, String> loopNames = new HashMap<>();
        /** set variables of the current branch (a Qute let section each) */
        final Map<String, String> setNames = new HashMap<>();

        String loopAlias;
        String loopIterable;
        int openLets;
        boolean sawElse;

        Block(BlockType type, int line) {
            this.type = type;
            this.line = line;
        }
    }

    /** How printed values are turned into text. */
    public enum Output {
        /** Python's str(), as Jinja prints values. */
        TEXT("str"),
        /** str() without CR, LF and other control characters, for HTTP header lines. */
        HEADER_SAFE("header_safe");

        private final String function;

        Output(String function) {
            this.function = function;
        }
    }

    /**
     * Deepest nesting of if/for blocks and set variables (each set opens a Qute section that
     * lasts to the end of its branch). Qute parses and renders sections recursively, so deeper
     * templates would overflow the stack.
     */
    static final int MAX_SECTIONS = 100;

    private final StringBuilder out = new StringBuilder();
    private final Deque<Block> blocks = new ArrayDeque<>();
    private final Output outputMode;
    private int loopCounter;
    /** Qute sections open at this point of the output. */
    private int openSections;

    private JinjaToQute(Output outputMode) {
        this.outputMode = outputMode;
        blocks.push(new Block(BlockType.ROOT, 1));
    }

    /** @return Qute source equivalent to the Jinja template, printing values as Jinja does */
    public static String translate(String jinja) throws TemplateSyntaxException {
        return translate(jinja, Output.TEXT);
    }

    /** @return Qute source equivalent to the Jinja template */
    public static String translate(String jinja, Output outputMode) throws TemplateSyntaxException {
        return translate(jinja, outputMode, Whitespace.DEFAULT);
    }

    /** @return Qute source equivalent to the Jinja template under these whitespace settings */
    public static String translate(String jinja, Output outputMode, Whitespace whitespace)
            throws TemplateSyntaxException {
        JinjaToQute translator = new JinjaToQute(outputMode);
        for (JinjaLexer.Segment segment : JinjaLexer.split(jinja, whitespace)) {
            switch (segment.kind()) {
                case TEXT -> translator.text(segment.content());
                case OUTPUT -> translator.output(segment);
                case STATEMENT -> translator.statement(segment);
            }
        }
        Block open = translator.blocks.peek();
        if (open.type != BlockType.ROOT) {
            throw new TemplateSyntaxException(
                    open.line,
                    "'" + open.type.name().toLowerCase() + "' block is never closed" + " (missing {% end"
                            + open.type.name().toLowerCase() + " %})");
        }
        translator.closeLets(open);
        return translator.out.toString();
    }

    // ---------------------------------------------------------------- segments

    /** Unparsed character data; a literal "|}" is split so it cannot end the section early. */
    private void text(String text) {
        int from = 0;
        while (from < text.length()) {
            int end = text.indexOf("|}", from);
            int chunkEnd = end < 0 ? text.length() : end + 1;
            out.append("{|").append(text, from, chunkEnd).append("|}");
            from = chunkEnd;
        }
    }

    private void output(JinjaLexer.Segment segment) throws TemplateSyntaxException {
        if (segment.content().isEmpty()) {
            throw new TemplateSyntaxException(segment.line(), "expected an expression inside {{ }}");
        }
        String expression = emit(JinjaExpressionParser.parse(segment.content(), segment.line()), segment.line());
        // The function turns any value (None included) into its printed form.
        out.append("{fn:")
                .append(outputMode.function)
                .append('(')
                .append(expression)
                .append(")}");
    }

    private void statement(JinjaLexer.Segment segment) throws TemplateSyntaxException {
        String content = segment.content();
        int line = segment.line();
        int space = indexOfWhitespace(content);
        String keyword = space < 0 ? content : content.substring(0, space);
        String rest = space < 0 ? "" : content.substring(space).trim();
        switch (keyword) {
            case "if" -> {
                String condition = emit(JinjaExpressionParser.parse(requireArgument(rest, "if", line), line), line);
                openSection(line);
                blocks.push(new Block(BlockType.IF, line));
                out.append("{#if ").append(condition).append('}');
            }
            case "elif" -> {
                Block block = requireBlock(BlockType.IF, "elif", line);
                if (block.sawElse) {
                    throw new TemplateSyntaxException(line, "'elif' after 'else'");
                }
                String condition = emit(JinjaExpressionParser.parse(requireArgument(rest, "elif", line), line), line);
                closeLets(block);
                out.append("{#else if ").append(condition).append('}');
            }
            case "else" -> {
                requireNoArgument(rest, "else", line);
                Block block = blocks.peek();
                if (block.type == BlockType.ROOT) {
                    throw new TemplateSyntaxException(line, "'else' outside of an if or for block");
                }
                if (block.sawElse) {
                    throw new TemplateSyntaxException(line, "a block can have only one 'else'");
                }
                block.sawElse = true;
                closeLets(block);
                out.append("{#else}");
            }
            case "endif" -> {
                requireNoArgument(rest, "endif", line);
                closeLets(requireBlock(BlockType.IF, "endif", line));
                blocks.pop();
                openSections--;
                out.append("{/if}");
            }
            case "for" -> forBlock(rest, line);
            case "endfor" -> {
                requireNoArgument(rest, "endfor", line);
                closeLets(requireBlock(BlockType.FOR, "endfor", line));
                blocks.pop();
                openSections--;
                out.append("{/for}");
            }
            case "set" -> {
                JinjaExpressionParser.SetHeader header =
                        JinjaExpressionParser.parseSet(requireArgument(rest, "set", line), line);
                String value = emit(header.value(), line);
                Block block = blocks.peek();
                openSection(line);
                block.setNames.put(header.name(), header.name());
                block.openLets++;
                out.append("{#let ")
                        .append(header.name())
                        .append('=')
                        .append(value)
                        .append('}');
            }
            case "endraw" -> throw new TemplateSyntaxException(line, "'endraw' without 'raw'");
            default ->
                throw new TemplateSyntaxException(
                        line,
                        keyword.isEmpty()
                                ? "empty block tag {% %}"
                                : "unsupported tag '" + keyword
                                        + "'; webhook templates support if/elif/else, for, set and raw");
        }
    }

    private void forBlock(String header, int line) throws TemplateSyntaxException {
        JinjaExpressionParser.ForHeader parsed =
                JinjaExpressionParser.parseFor(requireArgument(header, "for", line), line);
        // Evaluate the iterable before the loop's own names are in scope.
        String iterable = emit(parsed.iterable(), line);
        Block block = new Block(BlockType.FOR, line);
        block.loopAlias = LOOP_ALIAS_PREFIX + (++loopCounter);
        block.loopIterable = iterable;
        List<String> names = parsed.names();
        if (names.size() == 1) {
            block.loopNames.put(names.get(0), block.loopAlias);
        } else {
            // for k, v in pairs: each element is a list, unpacked by position
            for (int i = 0; i < names.size(); i++) {
                block.loopNames.put(names.get(i), block.loopAlias + "[" + i + "]");
            }
        }
        openSection(line);
        blocks.push(block);
        out.append("{#for ")
                .append(block.loopAlias)
                .append(" in fn:iter(")
                .append(iterable)
                .append(")}");
    }

    private void openSection(int line) throws TemplateSyntaxException {
        if (++openSections > MAX_SECTIONS) {
            throw new TemplateSyntaxException(
                    line, "blocks and set variables are nested more than " + MAX_SECTIONS + " levels deep");
        }
    }

    private void closeLets(Block block) {
        for (; block.openLets > 0; block.openLets--) {
            out.append("{/let}");
            openSections--;
        }
        // set variables end with the branch that defined them
        block.setNames.clear();
    }

    private Block requireBlock(BlockType type, String tag, int line) throws TemplateSyntaxException {
        Block block = blocks.peek();
        if (block.type != type) {
            throw new TemplateSyntaxException(
                    line,
                    "unexpected '" + tag + "'"
                            + (block.type == BlockType.ROOT
                                    ? ""
                                    : "; the innermost open block is '"
                                            + block.type.name().toLowerCase() + "' from line " + block.line));
        }
        return block;
    }

    private static String requireArgument(String rest, String tag, int line) throws TemplateSyntaxException {
        if (rest.isEmpty()) {
            throw new TemplateSyntaxException(line, "'" + tag + "' needs an expression");
        }
        return rest;
    }

    private static void requireNoArgument(String rest, String tag, int line) throws TemplateSyntaxException {
        if (!rest.isEmpty()) {
            throw new TemplateSyntaxException(line, "unexpected text after '" + tag + "': " + rest);
        }
    }

    private static int indexOfWhitespace(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    // ---------------------------------------------------------------- expressions

    private String emit(Expr expr, int line) throws TemplateSyntaxException {
        return emit(expr, line, 0);
    }

    /**
     * @param depth how deep in the tree {@code expr} is: chains such as {@code a + a + ... + a}
     *              build deep trees without nesting, so the depth is bounded here too
     */
    private String emit(Expr expr, int line, int depth) throws TemplateSyntaxException {
        if (depth > JinjaExpressionParser.MAX_NESTING) {
            throw new TemplateSyntaxException(
                    line, "expression is nested more than " + JinjaExpressionParser.MAX_NESTING + " levels deep");
        }
        if (expr instanceof Expr.Name name) {
            if (name.name().equals("loop") && innermostLoop() != null) {
                throw new TemplateSyntaxException(
                        line, "use loop.index, loop.index0, loop.first, loop.last, " + "loop.length or loop.revindex");
            }
            return lookup(name.name());
        }
        if (expr instanceof Expr.Literal literal) {
            return QuteLiterals.of(literal.value());
        }
        if (expr instanceof Expr.ListLiteral list) {
            return call("list", list.elements(), line, depth);
        }
        if (expr instanceof Expr.Call call) {
            return call(call.function(), call.arguments(), line, depth);
        }
        if (expr instanceof Expr.Attribute attribute) {
            if (attribute.target() instanceof Expr.Name target
                    && target.name().equals("loop")
                    && innermostLoop() != null
                    && !isBound("loop")) {
                return loopVariable(attribute.name(), line);
            }
            return item(attribute.target(), attribute.name(), line, depth);
        }
        Expr.Item item = (Expr.Item) expr;
        if (item.key() instanceof Expr.Literal key && (key.value() instanceof String || key.value() instanceof Long)) {
            return item(item.target(), key.value(), line, depth);
        }
        return "fn:getitem(" + emit(item.target(), line, depth + 1) + "," + emit(item.key(), line, depth + 1) + ")";
    }

    /** {@code target.key} / {@code target['key']} as a Qute path when possible. */
    private String item(Expr target, Object key, int line, int depth) throws TemplateSyntaxException {
        String base = emit(target, line, depth + 1);
        if (isPath(base)) {
            if (key instanceof String s && IDENTIFIER.matcher(s).matches()) {
                return base + "." + s;
            }
            if (key instanceof String s && BRACKET_KEY.matcher(s).matches()) {
                return base + "['" + s + "']";
            }
            if (key instanceof Long l && l >= 0 && l <= Integer.MAX_VALUE) {
                return base + "[" + l + "]";
            }
        }
        return "fn:getitem(" + base + "," + QuteLiterals.of(key) + ")";
    }

    /** A Qute expression made only of a name and property/bracket parts (no calls). */
    private static boolean isPath(String qute) {
        return !qute.contains(":") && !qute.contains("(") && Character.isLetter(qute.charAt(0));
    }

    private String loopVariable(String attribute, int line) throws TemplateSyntaxException {
        Block loop = innermostLoop();
        String alias = loop.loopAlias;
        return switch (attribute) {
            case "index" -> alias + "_count";
            case "index0" -> alias + "_index";
            case "first" -> alias + "_isFirst";
            case "last" -> alias + "_isLast";
            case "length" -> "fn:length(fn:iter(" + loop.loopIterable + "))";
            case "revindex" -> "fn:sub(fn:length(fn:iter(" + loop.loopIterable + "))," + alias + "_index)";
            case "revindex0" -> "fn:sub(fn:sub(fn:length(fn:iter(" + loop.loopIterable + "))," + alias + "_index),1)";
            default -> throw new TemplateSyntaxException(line, "loop." + attribute + " is not supported");
        };
    }

    private String call(String function, List<Expr> arguments, int line, int depth) throws TemplateSyntaxException {
        StringBuilder call = new StringBuilder("fn:").append(function).append('(');
        for (int i = 0; i < arguments.size(); i++) {
            if (i > 0) {
                call.append(',');
            }
            call.append(emit(arguments.get(i), line, depth + 1));
        }
        return call.append(')').toString();
    }

    private String lookup(String name) {
        for (Block block : blocks) {
            String bound = block.setNames.getOrDefault(name, block.loopNames.get(name));
            if (bound != null) {
                return bound;
            }
        }
        return name;
    }

    private boolean isBound(String name) {
        return blocks.stream().anyMatch(block -> block.setNames.containsKey(name) || block.loopNames.containsKey(name));
    }

    private Block innermostLoop() {
        for (Block block : blocks) {
            if (block.type == BlockType.FOR) {
                return block;
            }
        }
        return null;
    }
}
