package io.pdgateway.server.exchange;

/**
 * Why a prefill leg failed, with what the client gets (design.md §3): the prefill's 4xx passes through; a 5xx, a
 * protocol error or a connection failure is a 502; a timeout is a 504. Each carries x-error-pd-prefill: true.
 *
 * @param metricStatus the gateway_prefill_request_fail_total status label (upstream's names)
 * @param upstreamBody the pod's own error body for a passed-through 4xx, else null
 * @param transientFault the pod may well answer the next request: its connection was refused or broke, or it said
 *     502, 503 or 504 (overloaded, restarting, or a proxy in front of it gave up). A 4xx is the request's own fault,
 *     a 500 the engine's; a timeout already spent the request's prefill budget.
 */
public record LegFailure(int clientStatus, String metricStatus, int metricCode, String message, byte[] upstreamBody,
        boolean transientFault) {

    static LegFailure httpStatus(int status, byte[] body) {
        String snippet = new String(body, 0, Math.min(body.length, 300), java.nio.charset.StandardCharsets.UTF_8);
        boolean clientError = status >= 400 && status < 500;
        int clientStatus = clientError ? status : 502;
        // Only a 4xx with a body of its own is passed through; a redirect or an empty answer becomes the gateway's
        // OpenAI-style error (the client must never get an empty 502).
        return new LegFailure(clientStatus, "http_error", status,
                "prefill pod answered " + status + (snippet.isEmpty() ? "" : ": " + snippet),
                clientError && body.length > 0 ? body : null, status == 502 || status == 503 || status == 504);
    }

    static LegFailure timeout(long millis) {
        return new LegFailure(504, "timeout", 504, "prefill pod did not answer within " + millis + " ms", null, false);
    }

    static LegFailure transport(Throwable cause) {
        return new LegFailure(502, "error", 502, "prefill pod unreachable: " + cause.getMessage(), null, true);
    }

    /** The pod answered, with an error status: it computed none of the prompt (engines check a request first). */
    public boolean answeredError() {
        return "http_error".equals(metricStatus);
    }

    /** The pod refused or broke the connection: outlier detection counts it. */
    public boolean connectionFailed() {
        return "error".equals(metricStatus) && transientFault;
    }

    public static LegFailure protocol(String message) {
        return new LegFailure(502, "error", 502, "prefill response unusable: " + message, null, false);
    }
}
