package io.pdgateway.server.demo;

/**
 * What the client saw of one request.
 *
 * @param route how it was served, from the response headers (e.g. "pd group-0", "standard standard-0")
 * @param ttftMillis time to the first content chunk, or -1
 * @param tpotMillis mean time per output token after the first, or -1 when fewer than two tokens arrived
 * @param error a short description when the request failed, else null
 */
public record RequestResult(String route, boolean fallback, double ttftMillis, double tpotMillis, String error) {
    public boolean failed() {
        return error != null;
    }
}
