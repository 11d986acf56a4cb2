package io.pdgateway.core.spec;

import java.util.List;

/** Scoring policy names of the spec's steps 3 and 4, as users write them in routingConfig and the environment. */
public final class SpecPolicies {
    public static final String PREFIX_CACHE = "prefix_cache";
    public static final String LEAST_REQUEST = "least_request";
    public static final String CONDUCTOR = "conductor";
    public static final String TOKEN_LOAD = "token_load";
    public static final String HYBRID_CACHE_LOAD = "hybrid_cache_load";
    public static final String LOAD_BALANCING = "load_balancing";

    public static final List<String> PREFILL = List.of(PREFIX_CACHE, LEAST_REQUEST, CONDUCTOR, TOKEN_LOAD, HYBRID_CACHE_LOAD);
    public static final List<String> DECODE = List.of(LOAD_BALANCING, LEAST_REQUEST, CONDUCTOR, TOKEN_LOAD);

    /** Spec: AIBRIX_PREFILL_SCORE_POLICY defaults to prefix_cache. */
    public static final String DEFAULT_PREFILL = PREFIX_CACHE;
    /** Spec: AIBRIX_DECODE_SCORE_POLICY defaults to load_balancing. */
    public static final String DEFAULT_DECODE = LOAD_BALANCING;

    private SpecPolicies() {}
}
