package io.pdgateway.core.routing;

/** Names of the cascade steps that can decide a request, as they appear in x-pd-decision and the debug log. */
public final class Step {
    public static final String BUCKET_FALLBACK = "bucket-fallback";
    public static final String COMBINED_OVERFLOW = "combined-overflow";
    public static final String PREFILL_IMBALANCE = "prefill-imbalance";
    public static final String DECODE_REQUEST_SPREAD = "decode-request-spread";
    public static final String DECODE_THROUGHPUT_SPREAD = "decode-throughput-spread";
    public static final String DECODE_DRAIN_RATE = "decode-drain-rate";
    public static final String BUCKET_SERVE = "bucket-serve";
    public static final String FINAL_SCORE = "final-score";
    public static final String NO_CANDIDATE = "no-candidate";

    private Step() {}
}
