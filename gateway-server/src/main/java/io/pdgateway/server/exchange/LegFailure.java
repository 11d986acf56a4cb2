package io.pdgateway.server.exchange;

/**
 * Why a prefill leg failed, with what the client gets (design.md §3): the prefill's 4xx passes through; a 5xx, a
 * protocol error or a connection failure is a 502; a timeout is a 504. Each carries x-error-pd-prefill: true.
 *
 * @param metricStatus the gateway_prefill_request_fail_total status label (upstream's names)
 * @param upstreamBody the pod's own error body for a passed-through 4xx, else null
 */
record LegFailure(int clientStatus, String metricStatus, int metricCode, String message, byte[] upstreamBody) {

    static LegFailure httpStatus(int status, byte[] body) {
        String snippet = new String(body, 0, Math.min(body.length, 300), java.nio.charset.StandardCharsets.UTF_8);
        int clientStatus = status >= 400 && status < 500 ? status : 502;
        return new LegFailure(clientStatus, "http_error", status,
                "prefill pod answered " + status + ": " + snippet, status < 500 ? body : null);
    }

    static LegFailure timeout(long millis) {
        return new LegFailure(504, "timeout", 504, "prefill pod did not answer within " + millis + " ms", null);
    }

    static LegFailure transport(Throwable cause) {
        return new LegFailure(502, "error", 502, "prefill pod unreachable: " + cause.getMessage(), null);
    }

    static LegFailure protocol(String message) {
        return new LegFailure(502, "error", 502, "prefill response unusable: " + message, null);
    }
}
