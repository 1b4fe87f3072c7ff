package org.sourceoftruth.dispatcher.template;

/** The request of a delivery could not be built (template error, invalid URL); the delivery fails. */
public class RequestPreparationException extends Exception {
    public RequestPreparationException(String message) {
        super(message);
    }
}
