package org.sourceoftruth.model.template;

import java.util.List;

/** The syntax tree of one Jinja expression, as {@link JinjaExpressionParser} reads it. */
sealed interface Expr {

    /** A variable: {@code data}, {@code event}, a loop variable. */
    record Name(String name) implements Expr {}

    /** A string, integer, float, boolean or none literal (value is String, Long, BigInteger, Double, Boolean or null). */
    record Literal(Object value) implements Expr {}

    /** {@code [a, b]} */
    record ListLiteral(List<Expr> elements) implements Expr {}

    /** {@code target.name} */
    record Attribute(Expr target, String name) implements Expr {}

    /** {@code target[key]} */
    record Item(Expr target, Expr key) implements Expr {}

    /**
     * A call of one of the template functions: a filter ({@code x|upper}), a test
     * ({@code x is defined}), an operator ({@code a == b}) or a supported method
     * ({@code x.items()}). Arguments are positional after keyword arguments were placed.
     */
    record Call(String function, List<Expr> arguments) implements Expr {}
}
