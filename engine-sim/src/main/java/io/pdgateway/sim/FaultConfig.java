package io.pdgateway.sim;

/**
 * Failures a simulated pod injects into its OpenAI endpoints (the KV side channel is governed by
 * {@code kvTransferSlowdown} only). A pod reads its faults once per request, when the request arrives;
 * {@link SimPod#setFaults(FaultConfig)} changes them for later requests.
 *
 * @param errorRate          share of requests (0..1) answered at once with {@code errorStatus}; drawn from the seed
 * @param errorStatus        HTTP status of an injected error (4xx or 5xx)
 * @param hangBeforeHeaders  never answer: no status line, no headers (the client must time out)
 * @param hangAfterTokens    -1: off; N: after N token chunks (streaming) or N generated tokens (non-streaming)
 *                           the response stops forever, without finish chunk or {@code [DONE]}; 0 sends the
 *                           streaming headers only
 * @param dropAfterTokens    -1: off; N: after N token chunks the pod closes the TCP connection abruptly, so
 *                           the client sees a truncated stream; 0 closes it before any response byte
 * @param kvTransferSlowdown multiplier (> 0) on the KV transfer time this pod's side channel charges
 * @param failKvFetch        decode role: the KV fetch fails as if the prefill pod had lost the KV
 */
public record FaultConfig(
        double errorRate,
        int errorStatus,
        boolean hangBeforeHeaders,
        int hangAfterTokens,
        int dropAfterTokens,
        double kvTransferSlowdown,
        boolean failKvFetch) {

    /** Status used when an error rate is set without naming one: the generic engine failure. */
    public static final int DEFAULT_ERROR_STATUS = 500;
    /** Marks a token-count fault as switched off. */
    public static final int OFF = -1;

    public FaultConfig {
        if (!(errorRate >= 0.0 && errorRate <= 1.0)) {
            throw new IllegalArgumentException("errorRate must be within 0..1, got " + errorRate);
        }
        if (errorStatus < 400 || errorStatus > 599) {
            throw new IllegalArgumentException("errorStatus must be a 4xx or 5xx status, got " + errorStatus);
        }
        if (hangAfterTokens < OFF || dropAfterTokens < OFF) {
            throw new IllegalArgumentException("hangAfterTokens and dropAfterTokens must be -1 (off) or >= 0");
        }
        if (!(kvTransferSlowdown > 0) || Double.isInfinite(kvTransferSlowdown)) {
            throw new IllegalArgumentException("kvTransferSlowdown must be a finite value > 0, got " + kvTransferSlowdown);
        }
    }

    /** No faults at all. */
    public static FaultConfig none() {
        return new FaultConfig(0.0, DEFAULT_ERROR_STATUS, false, OFF, OFF, 1.0, false);
    }

    /** A copy that fails {@code rate} of the requests with {@code status}. */
    public FaultConfig withErrors(double rate, int status) {
        return new FaultConfig(rate, status, hangBeforeHeaders, hangAfterTokens, dropAfterTokens, kvTransferSlowdown,
                failKvFetch);
    }

    /** A copy that never answers. */
    public FaultConfig withHangBeforeHeaders() {
        return new FaultConfig(errorRate, errorStatus, true, hangAfterTokens, dropAfterTokens, kvTransferSlowdown,
                failKvFetch);
    }

    /** A copy whose responses stop forever after {@code tokens} token chunks. */
    public FaultConfig withHangAfterTokens(int tokens) {
        return new FaultConfig(errorRate, errorStatus, hangBeforeHeaders, tokens, dropAfterTokens, kvTransferSlowdown,
                failKvFetch);
    }

    /** A copy that closes the connection abruptly after {@code tokens} token chunks. */
    public FaultConfig withDropAfterTokens(int tokens) {
        return new FaultConfig(errorRate, errorStatus, hangBeforeHeaders, hangAfterTokens, tokens, kvTransferSlowdown,
                failKvFetch);
    }

    /** A copy whose KV side channel takes {@code factor} times the modelled transfer time. */
    public FaultConfig withKvTransferSlowdown(double factor) {
        return new FaultConfig(errorRate, errorStatus, hangBeforeHeaders, hangAfterTokens, dropAfterTokens, factor,
                failKvFetch);
    }

    /** A copy whose decode-side KV fetches fail. */
    public FaultConfig withFailKvFetch() {
        return new FaultConfig(errorRate, errorStatus, hangBeforeHeaders, hangAfterTokens, dropAfterTokens,
                kvTransferSlowdown, true);
    }
}
