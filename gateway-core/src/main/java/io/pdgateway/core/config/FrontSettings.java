package io.pdgateway.core.config;

/**
 * The client-facing HTTP side: body limits, connection timeouts, HTTP/2, API keys, debug endpoints, and whether a
 * failed prefill is retried before the client hears of it, and how many event loops serve clients. pd-gateway's own settings (the spec has none for these).
 */
public record FrontSettings(int maxRequestBodyBytes, double requestBodyTimeoutSeconds, String apiKeys,
        String apiKeysFile, boolean debugEndpoints, boolean prefillRetry, double requestHeaderTimeoutSeconds,
        double keepAliveTimeoutSeconds, boolean http2Cleartext, int eventLoops) {

    public static FrontSettings read(KnobSource env) {
        return new FrontSettings(env.get(Knobs.MAX_REQUEST_BODY_BYTES).intValue(),
                env.get(Knobs.REQUEST_BODY_TIMEOUT_SECONDS), env.get(Knobs.API_KEYS), env.get(Knobs.API_KEYS_FILE),
                env.get(Knobs.DEBUG_ENDPOINTS), env.get(Knobs.PREFILL_RETRY),
                env.get(Knobs.REQUEST_HEADER_TIMEOUT_SECONDS), env.get(Knobs.KEEPALIVE_TIMEOUT_SECONDS),
                env.get(Knobs.HTTP2_CLEARTEXT), env.get(Knobs.EVENT_LOOPS));
    }

    /** The event loops to serve clients on: the setting, or one per core when it is 0. */
    public int eventLoopCount() {
        return eventLoops > 0 ? eventLoops : Runtime.getRuntime().availableProcessors();
    }
}
