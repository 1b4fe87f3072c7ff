package org.sourceoftruth.model.template;

/**
 * A webhook template that cannot be compiled. The message names the line and is meant for the
 * user who saved the template (records-api reports it under the field's name).
 */
public class TemplateSyntaxException extends Exception {
    private final int line;

    public TemplateSyntaxException(int line, String message) {
        super("line " + line + ": " + message);
        this.line = line;
    }

    /** 1-based line of the template where the problem starts. */
    public int line() {
        return line;
    }
}
