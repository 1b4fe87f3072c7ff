package org.sourceoftruth.model.template;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The tokens of one Jinja expression (names, string and number literals, operators) and the
 * parser's position in them: what {@link JinjaExpressionParser} reads its grammar from. Errors
 * name the template line.
 */
final class ExpressionTokens {

    enum TokenType {
        NAME,
        STRING,
        NUMBER,
        OPERATOR,
        END
    }

    record Token(TokenType type, String text, Object value) {}

    private final List<Token> tokens;
    private final int line;
    private int index;

    ExpressionTokens(String source, int line) throws TemplateSyntaxException {
        this.tokens = tokenize(source, line);
        this.line = line;
    }

    Token peek() {
        return tokens.get(index);
    }

    Token peekAhead(int offset) {
        return tokens.get(Math.min(index + offset, tokens.size() - 1));
    }

    Token next() {
        Token token = tokens.get(index);
        if (token.type != TokenType.END) {
            index++;
        }
        return token;
    }

    /** Moves past {@code count} tokens already looked at with {@link #peek} / {@link #peekAhead}. */
    void skip(int count) {
        index += count;
    }

    boolean peekIs(String operator) {
        Token token = peek();
        return token.type == TokenType.OPERATOR && token.text.equals(operator);
    }

    boolean accept(String operator) {
        if (peekIs(operator)) {
            index++;
            return true;
        }
        return false;
    }

    static boolean isKeyword(Token token, String keyword) {
        return token.type == TokenType.NAME && token.text.equals(keyword);
    }

    boolean acceptKeyword(String keyword) {
        if (isKeyword(peek(), keyword)) {
            index++;
            return true;
        }
        return false;
    }

    static boolean startsOperand(Token token) {
        return token.type == TokenType.STRING
                || token.type == TokenType.NUMBER
                || (token.type == TokenType.NAME
                        && !Set.of("and", "or", "not", "in", "is", "if", "else").contains(token.text));
    }

    void expect(String operator) throws TemplateSyntaxException {
        if (!accept(operator)) {
            Token token = peek();
            throw error("expected '" + operator + "' but found "
                    + (token.type == TokenType.END ? "the end of the expression" : "'" + token.text + "'"));
        }
    }

    String expectName(String what) throws TemplateSyntaxException {
        Token token = next();
        if (token.type != TokenType.NAME) {
            throw error("expected " + what);
        }
        return token.text;
    }

    String expectTestName() throws TemplateSyntaxException {
        Token token = next();
        if (token.type != TokenType.NAME) {
            throw error("expected a test name after 'is'");
        }
        return token.text;
    }

    void expectEnd() throws TemplateSyntaxException {
        Token token = peek();
        if (token.type != TokenType.END) {
            throw error("unexpected '" + token.text + "'");
        }
    }

    TemplateSyntaxException error(String message) {
        return new TemplateSyntaxException(line, message);
    }

    private static final String[] OPERATORS = {
        "//", "==", "!=", "<=", ">=", "**", "(", ")", "[", "]", "{", "}", ".", ",", "|", "~", "+", "-", "*", "/", "%",
        "<", ">", "=", ":"
    };

    private static List<Token> tokenize(String source, int line) throws TemplateSyntaxException {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        while (i < source.length()) {
            char c = source.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (Character.isLetter(c) || c == '_') {
                int start = i;
                while (i < source.length()
                        && (Character.isLetterOrDigit(source.charAt(i)) || source.charAt(i) == '_')) {
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
                        throw new TemplateSyntaxException(
                                line, "integer literal has more than " + Arithmetic.MAX_DIGITS + " digits");
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
