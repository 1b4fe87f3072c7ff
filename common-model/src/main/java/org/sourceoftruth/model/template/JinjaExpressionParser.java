package org.sourceoftruth.model.template;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one Jinja expression into an {@link Expr} tree. Operators, filters, tests and the few
 * supported methods all become {@link Expr.Call}s of {@link TemplateFunctions}; unknown filters,
 * tests or methods are syntax errors here, at save time, as in Jinja.
 *
 * <p>Precedence, loosest first: {@code or}, {@code and}, {@code not}, comparisons and
 * {@code in}/{@code is}, {@code ~}, {@code + -}, {@code * / // %}, unary minus, filters, then
 * attribute/item access and calls.
 */
final class JinjaExpressionParser {

    private enum TokenType { NAME, STRING, NUMBER, OPERATOR, END }

    private record Token(TokenType type, String text, Object value) {
    }

    private static final Set<String> COMPARISONS = Set.of("==", "!=", "<", "<=", ">", ">=");

    /**
     * Deepest nesting of parentheses, brackets, arguments and prefix operators. The parser (and
     * what walks its trees) recurses once per level: past this, input such as a thousand "("
     * would overflow the thread's stack instead of being reported.
     */
    static final int MAX_NESTING = 100;

    private final List<Token> tokens;
    private final int line;
    private int index;
    private int nesting;

    private JinjaExpressionParser(List<Token> tokens, int line) {
        this.tokens = tokens;
        this.line = line;
    }

    /** Parses a whole expression. */
    static Expr parse(String source, int line) throws TemplateSyntaxException {
        JinjaExpressionParser parser = new JinjaExpressionParser(tokenize(source, line), line);
        Expr expr = parser.expression();
        parser.expectEnd();
        return expr;
    }

    /** Parses {@code names in expression} of a for tag: returns the loop names and the iterable. */
    static ForHeader parseFor(String source, int line) throws TemplateSyntaxException {
        JinjaExpressionParser parser = new JinjaExpressionParser(tokenize(source, line), line);
        List<String> names = new ArrayList<>();
        boolean parenthesized = parser.accept("(");
        do {
            names.add(parser.expectName("a loop variable name"));
        } while (parser.accept(","));
        if (parenthesized) {
            parser.expect(")");
        }
        if (!parser.acceptKeyword("in")) {
            throw parser.error("expected 'in' after the loop variable(s)");
        }
        Expr iterable = parser.filtered();
        if (parser.acceptKeyword("if")) {
            throw parser.error("loop filtering with 'if' is not supported; put an {% if %} inside the loop");
        }
        parser.expectEnd();
        return new ForHeader(List.copyOf(names), iterable);
    }

    /** Parses {@code name = expression} of a set tag. */
    static SetHeader parseSet(String source, int line) throws TemplateSyntaxException {
        JinjaExpressionParser parser = new JinjaExpressionParser(tokenize(source, line), line);
        String name = parser.expectName("a variable name");
        if (!parser.accept("=")) {
            throw parser.error("expected '=' after the variable name; block assignments are not supported");
        }
        Expr value = parser.expression();
        parser.expectEnd();
        return new SetHeader(name, value);
    }

    record ForHeader(List<String> names, Expr iterable) {
    }

    record SetHeader(String name, Expr value) {
    }

    // ---------------------------------------------------------------- grammar

    private Expr expression() throws TemplateSyntaxException {
        descend();
        Expr value = or();
        if (acceptKeyword("if")) {
            throw error("inline 'if' expressions are not supported; use an {% if %} block");
        }
        nesting--;
        return value;
    }

    /** Enters one more level of recursion, refused past {@link #MAX_NESTING}. */
    private void descend() throws TemplateSyntaxException {
        if (++nesting > MAX_NESTING) {
            throw error("expression is nested more than " + MAX_NESTING + " levels deep");
        }
    }

    private Expr or() throws TemplateSyntaxException {
        Expr left = and();
        while (acceptKeyword("or")) {
            left = call("or", left, and());
        }
        return left;
    }

    private Expr and() throws TemplateSyntaxException {
        Expr left = not();
        while (acceptKeyword("and")) {
            left = call("and", left, not());
        }
        return left;
    }

    private Expr not() throws TemplateSyntaxException {
        if (acceptKeyword("not")) {
            descend();
            Expr operand = not();
            nesting--;
            return call("not", operand);
        }
        return comparison();
    }

    private Expr comparison() throws TemplateSyntaxException {
        Expr left = concat();
        while (true) {
            Token token = peek();
            if (token.type == TokenType.OPERATOR && COMPARISONS.contains(token.text)) {
                index++;
                left = call(comparisonFunction(token.text), left, concat());
            } else if (isKeyword(token, "in")) {
                index++;
                left = call("in", left, concat());
            } else if (isKeyword(token, "not") && isKeyword(peekAhead(1), "in")) {
                index += 2;
                left = call("not", call("in", left, concat()));
            } else if (isKeyword(token, "is")) {
                index++;
                boolean negated = acceptKeyword("not");
                String test = expectTestName();
                TemplateFunctions.Spec spec = TemplateFunctions.test(test);
                if (spec == null) {
                    throw error("no test named '" + test + "'");
                }
                List<Expr> args = new ArrayList<>();
                args.add(left);
                if (peekIs("(")) {
                    arguments(spec, args, "test '" + test + "'");
                } else if (spec.maxArguments() > 1 && startsOperand(peek())) {
                    args.add(concat()); // "x is sameas y" style: one argument without parentheses
                }
                checkArity(spec, args.size(), "test '" + test + "'");
                left = new Expr.Call(spec.function(), args);
                if (negated) {
                    left = call("not", left);
                }
            } else {
                return left;
            }
        }
    }

    private Expr concat() throws TemplateSyntaxException {
        Expr left = additive();
        while (accept("~")) {
            left = call("concat", left, additive());
        }
        return left;
    }

    private Expr additive() throws TemplateSyntaxException {
        Expr left = multiplicative();
        while (true) {
            if (accept("+")) {
                left = call("add", left, multiplicative());
            } else if (accept("-")) {
                left = call("sub", left, multiplicative());
            } else {
                return left;
            }
        }
    }

    private Expr multiplicative() throws TemplateSyntaxException {
        Expr left = unary();
        while (true) {
            if (accept("*")) {
                left = call("mul", left, unary());
            } else if (accept("//")) {
                left = call("floordiv", left, unary());
            } else if (accept("/")) {
                left = call("div", left, unary());
            } else if (accept("%")) {
                left = call("mod", left, unary());
            } else {
                return left;
            }
        }
    }

    private Expr unary() throws TemplateSyntaxException {
        if (accept("-")) {
            descend();
            Expr operand = unary();
            nesting--;
            if (operand instanceof Expr.Literal literal && literal.value() instanceof Long l) {
                return new Expr.Literal(-l);
            }
            if (operand instanceof Expr.Literal literal && literal.value() instanceof Double d) {
                return new Expr.Literal(-d);
            }
            return call("neg", operand);
        }
        if (accept("+")) {
            descend();
            Expr operand = unary();
            nesting--;
            return operand;
        }
        return filtered();
    }

    private Expr filtered() throws TemplateSyntaxException {
        Expr value = postfix(primary());
        while (accept("|")) {
            String name = expectName("a filter name");
            value = filter(name, value);
        }
        return value;
    }

    private Expr filter(String name, Expr value) throws TemplateSyntaxException {
        if (name.equals("map")) {
            // only the attribute form: items|map(attribute='name')
            List<Expr> args = new ArrayList<>(List.of(value));
            arguments(TemplateFunctions.filter("map_attribute"), args, "filter 'map'");
            return new Expr.Call("map_attribute", args);
        }
        TemplateFunctions.Spec spec = TemplateFunctions.filter(name);
        if (spec == null) {
            throw error("no filter named '" + name + "'");
        }
        List<Expr> args = new ArrayList<>();
        args.add(value);
        if (peekIs("(")) {
            arguments(spec, args, "filter '" + name + "'");
        }
        checkArity(spec, args.size(), "filter '" + name + "'");
        return new Expr.Call(spec.function(), args);
    }

    private Expr postfix(Expr target) throws TemplateSyntaxException {
        Expr value = target;
        while (true) {
            if (accept(".")) {
                Token token = next();
                if (token.type == TokenType.NAME) {
                    if (peekIs("(")) {
                        value = method(token.text, value);
                    } else {
                        value = new Expr.Attribute(value, token.text);
                    }
                } else if (token.type == TokenType.NUMBER && token.value instanceof Long) {
                    value = new Expr.Item(value, new Expr.Literal(token.value));
                } else {
                    throw error("expected an attribute name after '.'");
                }
            } else if (accept("[")) {
                Expr key = expression();
                if (peekIs(":")) {
                    throw error("slices are not supported");
                }
                expect("]");
                value = new Expr.Item(value, key);
            } else if (peekIs("(")) {
                throw error("calling functions is not supported in webhook templates");
            } else {
                return value;
            }
        }
    }

    private Expr method(String name, Expr target) throws TemplateSyntaxException {
        TemplateFunctions.Spec spec = TemplateFunctions.method(name);
        if (spec == null) {
            throw error("method '" + name + "()' is not available in webhook templates");
        }
        List<Expr> args = new ArrayList<>();
        args.add(target);
        arguments(spec, args, "method '" + name + "()'");
        checkArity(spec, args.size(), "method '" + name + "()'");
        return new Expr.Call(spec.function(), args);
    }

    private Expr primary() throws TemplateSyntaxException {
        Token token = next();
        switch (token.type) {
            case STRING, NUMBER:
                return new Expr.Literal(token.value);
            case NAME:
                return switch (token.text) {
                    case "true", "True" -> new Expr.Literal(Boolean.TRUE);
                    case "false", "False" -> new Expr.Literal(Boolean.FALSE);
                    case "none", "None" -> new Expr.Literal(null);
                    case "and", "or", "not", "in", "is", "if", "else" ->
                            throw error("unexpected '" + token.text + "'");
                    default -> new Expr.Name(token.text);
                };
            case OPERATOR:
                if (token.text.equals("(")) {
                    Expr inner = expression();
                    if (accept(",")) {
                        throw error("tuples are not supported");
                    }
                    expect(")");
                    return inner;
                }
                if (token.text.equals("[")) {
                    List<Expr> elements = new ArrayList<>();
                    if (!accept("]")) {
                        do {
                            if (peekIs("]")) {
                                break; // trailing comma
                            }
                            elements.add(expression());
                        } while (accept(","));
                        expect("]");
                    }
                    return new Expr.ListLiteral(elements);
                }
                if (token.text.equals("{")) {
                    throw error("dictionary literals are not supported");
                }
                throw error("unexpected '" + token.text + "'");
            default:
                throw error("unexpected end of expression");
        }
    }

    /** Reads {@code (a, b, name=c)} and places the arguments after the target in {@code args}. */
    private void arguments(TemplateFunctions.Spec spec, List<Expr> args, String what) throws TemplateSyntaxException {
        expect("(");
        Map<String, Expr> keywords = new LinkedHashMap<>();
        if (!accept(")")) {
            do {
                if (peek().type == TokenType.NAME && peekAhead(1).type == TokenType.OPERATOR
                        && peekAhead(1).text.equals("=")) {
                    String keyword = next().text;
                    index++;
                    if (keywords.put(keyword, expression()) != null) {
                        throw error(what + " got argument '" + keyword + "' twice");
                    }
                } else {
                    if (!keywords.isEmpty()) {
                        throw error("positional argument follows keyword argument");
                    }
                    args.add(expression());
                }
            } while (accept(","));
            expect(")");
        }
        for (Map.Entry<String, Expr> keyword : keywords.entrySet()) {
            int position = spec.parameterIndex(keyword.getKey());
            if (position < 0) {
                throw error(what + " got an unexpected keyword argument '" + keyword.getKey() + "'");
            }
            if (position < args.size()) {
                throw error(what + " got multiple values for argument '" + keyword.getKey() + "'");
            }
            while (args.size() < position) {
                args.add(new Expr.Literal(spec.defaultOf(args.size())));
            }
            args.add(keyword.getValue());
        }
    }

    private void checkArity(TemplateFunctions.Spec spec, int count, String what) throws TemplateSyntaxException {
        if (count < spec.minArguments() || count > spec.maxArguments()) {
            throw error(what + " takes " + (spec.minArguments() == spec.maxArguments()
                    ? String.valueOf(spec.minArguments() - 1)
                    : (spec.minArguments() - 1) + " to " + (spec.maxArguments() - 1))
                    + " argument(s), got " + (count - 1));
        }
    }

    private static String comparisonFunction(String operator) {
        return switch (operator) {
            case "==" -> "eq";
            case "!=" -> "ne";
            case "<" -> "lt";
            case "<=" -> "le";
            case ">" -> "gt";
            default -> "ge";
        };
    }

    private static Expr call(String function, Expr... args) {
        return new Expr.Call(function, List.of(args));
    }

    // ---------------------------------------------------------------- token helpers

    private Token peek() {
        return tokens.get(index);
    }

    private Token peekAhead(int offset) {
        return tokens.get(Math.min(index + offset, tokens.size() - 1));
    }

    private Token next() {
        Token token = tokens.get(index);
        if (token.type != TokenType.END) {
            index++;
        }
        return token;
    }

    private boolean peekIs(String operator) {
        Token token = peek();
        return token.type == TokenType.OPERATOR && token.text.equals(operator);
    }

    private boolean accept(String operator) {
        if (peekIs(operator)) {
            index++;
            return true;
        }
        return false;
    }

    private static boolean isKeyword(Token token, String keyword) {
        return token.type == TokenType.NAME && token.text.equals(keyword);
    }

    private boolean acceptKeyword(String keyword) {
        if (isKeyword(peek(), keyword)) {
            index++;
            return true;
        }
        return false;
    }

    private static boolean startsOperand(Token token) {
        return token.type == TokenType.STRING || token.type == TokenType.NUMBER
                || (token.type == TokenType.NAME && !Set.of("and", "or", "not", "in", "is", "if", "else")
                .contains(token.text));
    }

    private void expect(String operator) throws TemplateSyntaxException {
        if (!accept(operator)) {
            Token token = peek();
            throw error("expected '" + operator + "' but found "
                    + (token.type == TokenType.END ? "the end of the expression" : "'" + token.text + "'"));
        }
    }

    private String expectName(String what) throws TemplateSyntaxException {
        Token token = next();
        if (token.type != TokenType.NAME) {
            throw error("expected " + what);
        }
        return token.text;
    }

    private String expectTestName() throws TemplateSyntaxException {
        Token token = next();
        if (token.type != TokenType.NAME) {
            throw error("expected a test name after 'is'");
        }
        return token.text;
    }

    private void expectEnd() throws TemplateSyntaxException {
        Token token = peek();
        if (token.type != TokenType.END) {
            throw error("unexpected '" + token.text + "'");
        }
    }

    private TemplateSyntaxException error(String message) {
        return new TemplateSyntaxException(line, message);
    }

    // ---------------------------------------------------------------- tokenizer

    private static final String[] OPERATORS = {"//", "==", "!=", "<=", ">=", "**", "(", ")", "[", "]", "{", "}", ".",
            ",", "|", "~", "+", "-", "*", "/", "%", "<", ">", "=", ":"};

    private static List<Token> tokenize(String source, int line) throws TemplateSyntaxException {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        while (i < source.length()) {
            char c = source.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (Character.isLetter(c) || c == '_') {
                int start = i;
                while (i < source.length() && (Character.isLetterOrDigit(source.charAt(i)) || source.charAt(i) == '_')) {
                    i++;
                }
                String name = source.substring(start, i);
                tokens.add(new Token(TokenType.NAME, name, name));
            } else if (Character.isDigit(c)) {
                int start = i;
                while (i < source.length() && (Character.isDigit(source.charAt(i)) || source.charAt(i) == '_')) {
                    i++;
                }
                boolean isFloat = false;
                if (i + 1 < source.length() && source.charAt(i) == '.' && Character.isDigit(source.charAt(i + 1))) {
                    isFloat = true;
                    i++;
                    while (i < source.length() && Character.isDigit(source.charAt(i))) {
                        i++;
                    }
                }
                if (i < source.length() && (source.charAt(i) == 'e' || source.charAt(i) == 'E')) {
                    int exponent = i + 1;
                    if (exponent < source.length() && "+-".indexOf(source.charAt(exponent)) >= 0) {
                        exponent++;
                    }
                    if (exponent < source.length() && Character.isDigit(source.charAt(exponent))) {
                        isFloat = true;
                        i = exponent;
                        while (i < source.length() && Character.isDigit(source.charAt(i))) {
                            i++;
                        }
                    }
                }
                String text = source.substring(start, i).replace("_", "");
                Object value;
                if (isFloat) {
                    value = Double.parseDouble(text);
                } else {
                    if (text.length() > Arithmetic.MAX_DIGITS) {
                        throw new TemplateSyntaxException(line, "integer literal has more than "
                                + Arithmetic.MAX_DIGITS + " digits");
                    }
                    BigInteger big = new BigInteger(text);
                    value = big.bitLength() < 64 ? (Object) big.longValue() : big;
                }
                tokens.add(new Token(TokenType.NUMBER, text, value));
            } else if (c == '\'' || c == '"') {
                StringBuilder value = new StringBuilder();
                int j = i + 1;
                boolean closed = false;
                while (j < source.length()) {
                    char d = source.charAt(j);
                    if (d == c) {
                        closed = true;
                        break;
                    }
                    if (d == '\\' && j + 1 < source.length()) {
                        j++;
                        value.append(unescape(source.charAt(j)));
                    } else {
                        value.append(d);
                    }
                    j++;
                }
                if (!closed) {
                    throw new TemplateSyntaxException(line, "unterminated string literal");
                }
                tokens.add(new Token(TokenType.STRING, source.substring(i, j + 1), value.toString()));
                i = j + 1;
            } else {
                String operator = null;
                for (String candidate : OPERATORS) {
                    if (source.startsWith(candidate, i)) {
                        operator = candidate;
                        break;
                    }
                }
                if (operator == null) {
                    throw new TemplateSyntaxException(line, "unexpected character '" + c + "'");
                }
                if (operator.equals("**")) {
                    throw new TemplateSyntaxException(line, "the '**' operator is not supported");
                }
                tokens.add(new Token(TokenType.OPERATOR, operator, operator));
                i += operator.length();
            }
        }
        tokens.add(new Token(TokenType.END, "", null));
        return tokens;
    }

    private static String unescape(char c) {
        return switch (c) {
            case 'n' -> "\n";
            case 't' -> "\t";
            case 'r' -> "\r";
            case '0' -> "\0";
            default -> String.valueOf(c); // \\ \' \" and unknown escapes keep the character
        };
    }
}
