package io.pdgateway.sim.api;

/** A request the pod refuses, with the HTTP status and the message its OpenAI error body carries. */
public final class ApiException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int status;

    ApiException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, message);
    }

    int status() {
        return status;
    }
}
