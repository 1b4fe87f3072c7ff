package org.sourceoftruth.dispatcher.recordsapi;

/**
 * records-api could not be asked: it does not answer, refuses the dispatcher's token, or answers
 * something that is not what its API promises. The message says which, for logs and readiness.
 */
public class RecordsApiException extends Exception {

    public RecordsApiException(String message) {
        super(message);
    }

    public RecordsApiException(String message, Throwable cause) {
        super(message, cause);
    }
}
