package org.sourceoftruth.records.changelog;

/** The change log could not be written; the surrounding write transaction must roll back. */
public class ChangeLogException extends RuntimeException {
    public ChangeLogException(String message, Throwable cause) {
        super(message, cause);
    }
}
