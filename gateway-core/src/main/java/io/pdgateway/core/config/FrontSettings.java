package io.pdgateway.core.config;

/**
 * The client-facing HTTP side: body limits, connection timeouts, HTTP/2, API keys, browser origins (CORS), debug
 * endpoints, whether a failed prefill is retried before the client hears of it, and how many event loops serve
 * clients. pd-gateway's own settings (the spec has none for these).
 */
public record FrontSettings(int maxRequestBodyBytes, double requestBodyTimeoutSeconds, String apiKeys,
        String apiKeysFile, boolean debugEndpoints, boolean prefillRetry, double requestHeaderTimeoutSeconds,
        double keepAliveTimeoutSeconds, boolean http2Cleartext, int eventLoops, long maxHeldBodyBytes,
        String corsAllowedOrigins) {
    /** The share of the JVM's maximum heap request bodies may hold when PD_GATEWAY_MAX_HELD_BODY_BYTES is 0. */
    static final int HEAP_SHARE_DIVISOR = 8;

    public static FrontSettings read(KnobSource env) {
        return new FrontSettings(env.get(Knobs.MAX_REQUEST_BODY_BYTES).intValue(),
                env.get(Knobs.REQUEST_BODY_TIMEOUT_SECONDS), env.get(Knobs.API_KEYS), env.get(Knobs.API_KEYS_FILE),
                env.get(Knobs.DEBUG_ENDPOINTS), env.get(Knobs.PREFILL_RETRY),
                env.get(Knobs.REQUEST_HEADER_TIMEOUT_SECONDS), env.get(Knobs.KEEPALIVE_TIMEOUT_SECONDS),
                env.get(Knobs.HTTP2_CLEARTEXT), env.get(Knobs.EVENT_LOOPS),
                env.get(Knobs.MAX_HELD_BODY_BYTES).longValue(), env.get(Knobs.CORS_ALLOWED_ORIGINS));
    }

    /** The bytes of request bodies held at once: the setting, or an eighth of the JVM's maximum heap when it is 0. */
    public long heldBodyLimit() {
        return maxHeldBodyBytes > 0 ? maxHeldBodyBytes : Runtime.getRuntime().maxMemory() / HEAP_SHARE_DIVISOR;
    }

    /** The event loops to serve clients on: the setting, or one per core when it is 0. */
    public int eventLoopCount() {
        return eventLoops > 0 ? eventLoops : Runtime.getRuntime().availableProcessors();
    }
}
