package io.pdgateway.engine;

/** A body that an engine adapter cannot turn into the next leg's request: the leg counts as failed. */
public class EngineProtocolException extends Exception {
    public EngineProtocolException(String message) {
        super(message);
    }
}
