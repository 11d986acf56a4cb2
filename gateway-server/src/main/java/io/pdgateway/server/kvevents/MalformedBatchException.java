package io.pdgateway.server.kvevents;

/** A payload that is not an engine event batch at all: it is counted and skipped, never applied. */
public final class MalformedBatchException extends Exception {
    public MalformedBatchException(String message) {
        super(message);
    }

    public MalformedBatchException(String message, Throwable cause) {
        super(message, cause);
    }
}
