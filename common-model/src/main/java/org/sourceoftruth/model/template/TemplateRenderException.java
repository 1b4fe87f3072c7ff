package org.sourceoftruth.model.template;

/**
 * A template that parsed but could not be rendered for one object: a type error in an
 * expression, the output growing past its limit, or rendering running past its time bound.
 */
public class TemplateRenderException extends RuntimeException {
    public TemplateRenderException(String message) {
        super(message);
    }

    public TemplateRenderException(String message, Throwable cause) {
        super(message, cause);
    }
}
