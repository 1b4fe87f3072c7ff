package org.sourceoftruth.model.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.model.template.ExpressionTokens.Token;
import org.sourceoftruth.model.template.ExpressionTokens.TokenType;

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

    private static final Set<String> COMPARISONS = Set.of("==", "!=", "<", "<=", ">", ">=");

    /**
     * Deepest nesting of parentheses, brackets, arguments and prefix operators. The parser (and
     * what walks its trees) recurses once per level: past this, input such as a thousand "("
     * would overflow the thread's stack instead of being reported.
     */
    static final int MAX_NESTING = 100;

    private final ExpressionTokens tokens;
    private int nesting;

    private JinjaExpressionParser(ExpressionTokens tokens) {
        this.tokens = tokens;
    }

    /** Parses a whole expression. */
    static Expr parse(String source, int line) throws TemplateSyntaxException {
        ExpressionTokens tokens = new ExpressionTokens(source, line);
        JinjaExpressionParser parser = new JinjaExpressionParser(tokens);
        Expr expr = parser.expression();
        tokens.expectEnd();
        return expr;
    }

    /** Parses {@code names in expression} of a for tag: returns the loop names and the iterable. */
    static ForHeader parseFor(String source, int line) throws TemplateSyntaxException {
        ExpressionTokens tokens = new ExpressionTokens(source, line);
        JinjaExpressionParser parser = new JinjaExpressionParser(tokens);
        List<String> names = new ArrayList<>();
        boolean parenthesized = tokens.accept("(");
        do {
            names.add(tokens.expectName("a loop variable name"));
        } while (tokens.accept(","));
        if (parenthesized) {
            tokens.expect(")");
        }
        if (!tokens.acceptKeyword("in")) {
            throw tokens.error("expected 'in' after the loop variable(s)");
        }
        Expr iterable = parser.filtered();
        if (tokens.acceptKeyword("if")) {
            throw tokens.error("loop filtering with 'if' is not supported; put an {% if %} inside the loop");
        }
        tokens.expectEnd();
        return new ForHeader(List.copyOf(names), iterable);
    }

    /** Parses {@code name = expression} of a set tag. */
    static SetHeader parseSet(String source, int line) throws TemplateSyntaxException {
        ExpressionTokens tokens = new ExpressionTokens(source, line);
        JinjaExpressionParser parser = new JinjaExpressionParser(tokens);
        String name = tokens.expectName("a variable name");
        if (!tokens.accept("=")) {
            throw tokens.error("expected '=' after the variable name; block assignments are not supported");
        }
        Expr value = parser.expression();
        tokens.expectEnd();
        return new SetHeader(name, value);
    }

    record ForHeader(List<String> names, Expr iterable) {}

    record SetHeader(String name, Expr value) {}

    // ---------------------------------------------------------------- grammar

    private Expr expression() throws TemplateSyntaxException {
        descend();
        Expr value = or();
        if (tokens.acceptKeyword("if")) {
            throw tokens.error("inline 'if' expressions are not supported; use an {% if %} block");
        }
        nesting--;
        return value;
    }

    /** Enters one more level of recursion, refused past {@link #MAX_NESTING}. */
    private void descend() throws TemplateSyntaxException {
        if (++nesting > MAX_NESTING) {
            throw tokens.error("expression is nested more than " + MAX_NESTING + " levels deep");
        }
    }

    private Expr or() throws TemplateSyntaxException {
        Expr left = and();
        while (tokens.acceptKeyword("or")) {
            left = call("or", left, and());
        }
        return left;
    }

    private Expr and() throws TemplateSyntaxException {
        Expr left = not();
        while (tokens.acceptKeyword("and")) {
            left = call("and", left, not());
        }
        return left;
    }

    private Expr not() throws TemplateSyntaxException {
        if (tokens.acceptKeyword("not")) {
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
            Token token = tokens.peek();
            if (token.type() == TokenType.OPERATOR && COMPARISONS.contains(token.text())) {
                tokens.skip(1);
                left = call(comparisonFunction(token.text()), left, concat());
            } else if (ExpressionTokens.isKeyword(token, "in")) {
                tokens.skip(1);
                left = call("in", left, concat());
            } else if (ExpressionTokens.isKeyword(token, "not")
                    && ExpressionTokens.isKeyword(tokens.peekAhead(1), "in")) {
                tokens.skip(2);
                left = call("not", call("in", left, concat()));
            } else if (ExpressionTokens.isKeyword(token, "is")) {
                tokens.skip(1);
                boolean negated = tokens.acceptKeyword("not");
                String test = tokens.expectTestName();
                FunctionSpecs.Spec spec = FunctionSpecs.test(test);
                if (spec == null) {
                    throw tokens.error("no test named '" + test + "'");
                }
                List<Expr> args = new ArrayList<>();
                args.add(left);
                if (tokens.peekIs("(")) {
                    arguments(spec, args, "test '" + test + "'");
                } else if (spec.maxArguments() > 1 && ExpressionTokens.startsOperand(tokens.peek())) {
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
        while (tokens.accept("~")) {
            left = call("concat", left, additive());
        }
        return left;
    }

    private Expr additive() throws TemplateSyntaxException {
        Expr left = multiplicative();
        while (true) {
            if (tokens.accept("+")) {
                left = call("add", left, multiplicative());
            } else if (tokens.accept("-")) {
                left = call("sub", left, multiplicative());
            } else {
                return left;
            }
        }
    }

    private Expr multiplicative() throws TemplateSyntaxException {
        Expr left = unary();
        while (true) {
            if (tokens.accept("*")) {
                left = call("mul", left, unary());
            } else if (tokens.accept("//")) {
                left = call("floordiv", left, unary());
            } else if (tokens.accept("/")) {
                left = call("div", left, unary());
            } else if (tokens.accept("%")) {
                left = call("mod", left, unary());
            } else {
                return left;
            }
        }
    }

    private Expr unary() throws TemplateSyntaxException {
        if (tokens.accept("-")) {
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
        if (tokens.accept("+")) {
            descend();
            Expr operand = unary();
            nesting--;
            return operand;
        }
        return filtered();
    }

    private Expr filtered() throws TemplateSyntaxException {
        Expr value = postfix(primary());
        while (tokens.accept("|")) {
            String name = tokens.expectName("a filter name");
            value = filter(name, value);
        }
        return value;
    }

    private Expr filter(String name, Expr value) throws TemplateSyntaxException {
        if (name.equals("map")) {
            // only the attribute form: items|map(attribute='name')
            List<Expr> args = new ArrayList<>(List.of(value));
            arguments(FunctionSpecs.filter("map_attribute"), args, "filter 'map'");
            return new Expr.Call("map_attribute", args);
        }
        FunctionSpecs.Spec spec = FunctionSpecs.filter(name);
        if (spec == null) {
            throw tokens.error("no filter named '" + name + "'");
        }
        List<Expr> args = new ArrayList<>();
        args.add(value);
        if (tokens.peekIs("(")) {
            arguments(spec, args, "filter '" + name + "'");
        }
        checkArity(spec, args.size(), "filter '" + name + "'");
        return new Expr.Call(spec.function(), args);
    }

    private Expr postfix(Expr target) throws TemplateSyntaxException {
        Expr value = target;
        while (true) {
            if (tokens.accept(".")) {
                Token token = tokens.next();
                if (token.type() == TokenType.NAME) {
                    if (tokens.peekIs("(")) {
                        value = method(token.text(), value);
                    } else {
                        value = new Expr.Attribute(value, token.text());
                    }
                } else if (token.type() == TokenType.NUMBER && token.value() instanceof Long) {
                    value = new Expr.Item(value, new Expr.Literal(token.value()));
                } else {
                    throw tokens.error("expected an attribute name after '.'");
                }
            } else if (tokens.accept("[")) {
                Expr key = expression();
                if (tokens.peekIs(":")) {
                    throw tokens.error("slices are not supported");
                }
                tokens.expect("]");
                value = new Expr.Item(value, key);
            } else if (tokens.peekIs("(")) {
                throw tokens.error("calling functions is not supported in webhook templates");
            } else {
                return value;
            }
        }
    }

    private Expr method(String name, Expr target) throws TemplateSyntaxException {
        FunctionSpecs.Spec spec = FunctionSpecs.method(name);
        if (spec == null) {
            throw tokens.error("method '" + name + "()' is not available in webhook templates");
        }
        List<Expr> args = new ArrayList<>();
        args.add(target);
        arguments(spec, args, "method '" + name + "()'");
        checkArity(spec, args.size(), "method '" + name + "()'");
        return new Expr.Call(spec.function(), args);
    }

    private Expr primary() throws TemplateSyntaxException {
        Token token = tokens.next();
        switch (token.type()) {
            case STRING, NUMBER:
                return new Expr.Literal(token.value());
            case NAME:
                return switch (token.text()) {
                    case "true", "True" -> new Expr.Literal(Boolean.TRUE);
                    case "false", "False" -> new Expr.Literal(Boolean.FALSE);
                    case "none", "None" -> new Expr.Literal(null);
                    case "and", "or", "not", "in", "is", "if", "else" ->
                        throw tokens.error("unexpected '" + token.text() + "'");
                    default -> new Expr.Name(token.text());
                };
            case OPERATOR:
                if (token.text().equals("(")) {
                    Expr inner = expression();
                    if (tokens.accept(",")) {
                        throw tokens.error("tuples are not supported");
                    }
                    tokens.expect(")");
                    return inner;
                }
                if (token.text().equals("[")) {
                    List<Expr> elements = new ArrayList<>();
                    if (!tokens.accept("]")) {
                        do {
                            if (tokens.peekIs("]")) {
                                break; // trailing comma
                            }
                            elements.add(expression());
                        } while (tokens.accept(","));
                        tokens.expect("]");
                    }
                    return new Expr.ListLiteral(elements);
                }
                if (token.text().equals("{")) {
                    throw tokens.error("dictionary literals are not supported");
                }
                throw tokens.error("unexpected '" + token.text() + "'");
            default:
                throw tokens.error("unexpected end of expression");
        }
    }

    /** Reads {@code (a, b, name=c)} and places the arguments after the target in {@code args}. */
    private void arguments(FunctionSpecs.Spec spec, List<Expr> args, String what) throws TemplateSyntaxException {
        tokens.expect("(");
        Map<String, Expr> keywords = new LinkedHashMap<>();
        if (!tokens.accept(")")) {
            do {
                if (tokens.peek().type() == TokenType.NAME
                        && tokens.peekAhead(1).type() == TokenType.OPERATOR
                        && tokens.peekAhead(1).text().equals("=")) {
                    String keyword = tokens.next().text();
                    tokens.skip(1);
                    if (keywords.put(keyword, expression()) != null) {
                        throw tokens.error(what + " got argument '" + keyword + "' twice");
                    }
                } else {
                    if (!keywords.isEmpty()) {
                        throw tokens.error("positional argument follows keyword argument");
                    }
                    args.add(expression());
                }
            } while (tokens.accept(","));
            tokens.expect(")");
        }
        for (Map.Entry<String, Expr> keyword : keywords.entrySet()) {
            int position = spec.parameterIndex(keyword.getKey());
            if (position < 0) {
                throw tokens.error(what + " got an unexpected keyword argument '" + keyword.getKey() + "'");
            }
            if (position < args.size()) {
                throw tokens.error(what + " got multiple values for argument '" + keyword.getKey() + "'");
            }
            while (args.size() < position) {
                args.add(new Expr.Literal(spec.defaultOf(args.size())));
            }
            args.add(keyword.getValue());
        }
    }

    private void checkArity(FunctionSpecs.Spec spec, int count, String what) throws TemplateSyntaxException {
        if (count < spec.minArguments() || count > spec.maxArguments()) {
            throw tokens.error(what + " takes "
                    + (spec.minArguments() == spec.maxArguments()
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
}
