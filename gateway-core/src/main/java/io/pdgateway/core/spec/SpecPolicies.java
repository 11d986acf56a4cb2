package io.pdgateway.core.spec;

/**
 * Scoring policy names of the spec's steps 3 and 4, as users write them in routingConfig and the environment. The
 * policies themselves are {@link io.pdgateway.core.routing.PrefillPolicy} and {@link io.pdgateway.core.routing.DecodePolicy}.
 */
public final class SpecPolicies {
    public static final String PREFIX_CACHE = "prefix_cache";
    public static final String LEAST_REQUEST = "least_request";
    public static final String CONDUCTOR = "conductor";
    public static final String TOKEN_LOAD = "token_load";
    public static final String HYBRID_CACHE_LOAD = "hybrid_cache_load";
    public static final String LOAD_BALANCING = "load_balancing";
    /** pd-gateway's own prefill policy, beyond the spec (README: "predicted_ttft"). */
    public static final String PREDICTED_TTFT = "predicted_ttft";

    private SpecPolicies() {}
}
