package io.pdgateway.core.config;

/**
 * The client-facing HTTP side: body limits, API keys, debug endpoints, and whether a failed prefill is retried before
 * the client hears of it. pd-gateway's own settings (the spec has none for these).
 */
public record FrontSettings(int maxRequestBodyBytes, double requestBodyTimeoutSeconds, String apiKeys,
        String apiKeysFile, boolean debugEndpoints, boolean prefillRetry) {

    public static FrontSettings read(KnobSource env) {
        return new FrontSettings(env.get(Knobs.MAX_REQUEST_BODY_BYTES).intValue(),
                env.get(Knobs.REQUEST_BODY_TIMEOUT_SECONDS), env.get(Knobs.API_KEYS), env.get(Knobs.API_KEYS_FILE),
                env.get(Knobs.DEBUG_ENDPOINTS), env.get(Knobs.PREFILL_RETRY));
    }
}
