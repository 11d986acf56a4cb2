package io.pdgateway.workload.run;

import io.pdgateway.workload.Slo;

/**
 * What the client saw of one request. Times are milliseconds; -1 where the request never got that far.
 *
 * @param startMillis   when it was sent, from the start of the run
 * @param lagMillis     how late it was sent against its scheduled arrival (a loaded client shows up here)
 * @param status        HTTP status, or 0 when no response arrived
 * @param route         how it was served, from the gateway's response headers ("pd p -> d", "standard s", or
 *                      "unrouted" when they are absent, as from an engine or another proxy)
 * @param fallback      served by a standard pod rather than a prefill/decode pair
 * @param ttfbMillis    time to the response headers (the first byte)
 * @param ttftMillis    time to the first content token
 * @param tpotMillis    mean time per output token after the first; -1 when fewer than two arrived
 * @param e2eMillis     time to the end of the response
 * @param outputTokens  content-bearing stream events received (one token each from vLLM and the simulator)
 * @param promptTokens  the prompt's length in tokens, as sent
 * @param error         a short description when the request failed ("kind: detail"), else null
 */
public record RequestResult(double startMillis, double lagMillis, int status, String route, boolean fallback,
        double ttfbMillis, double ttftMillis, double tpotMillis, double e2eMillis, int outputTokens, int promptTokens,
        String error) {
    public boolean failed() {
        return error != null;
    }

    /** Whether it succeeded within the objective: goodput counts these. */
    public boolean met(Slo slo) {
        return !failed() && slo.met(ttftMillis, tpotMillis);
    }

    /** The part of the error before the first colon: what the error tables group by. */
    public String errorKind() {
        if (error == null) {
            return null;
        }
        int colon = error.indexOf(':');
        return colon < 0 ? error : error.substring(0, colon);
    }

    /** A failure before anything was sent or received. */
    public static RequestResult failure(double startMillis, double lagMillis, int promptTokens, String error) {
        return new RequestResult(startMillis, lagMillis, 0, "unrouted", false, -1, -1, -1, -1, 0, promptTokens, error);
    }
}
