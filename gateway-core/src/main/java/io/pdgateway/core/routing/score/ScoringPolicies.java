package io.pdgateway.core.routing.score;

import io.pdgateway.core.routing.Scorer;
import io.pdgateway.core.spec.SpecPolicies;

/**
 * Policy name → scorer for spec steps 3 and 4. Names were validated when the knobs were built, so every name here is
 * one of the spec's. token_load and hybrid_cache_load have their own issue; until they land they score as
 * least_request (prefill) and load_balancing (decode), which {@link #implemented} lets the edge say out loud.
 */
public final class ScoringPolicies {
    private static final Scorer PREFIX_CACHE = new PrefixCacheScorer();
    private static final Scorer PREFILL_LEAST_REQUEST = new InFlightPrefillScorer();
    private static final Scorer PREFILL_CONDUCTOR = new ConductorPrefillScorer();
    private static final Scorer LOAD_BALANCING = new LoadBalancingDecodeScorer();
    private static final Scorer DECODE_LEAST_REQUEST = new RunningRequestsDecodeScorer();
    private static final Scorer DECODE_CONDUCTOR = new ConductorDecodeScorer();

    private ScoringPolicies() {}

    public static Scorer prefill(String policy) {
        return switch (policy) {
            case SpecPolicies.LEAST_REQUEST, SpecPolicies.TOKEN_LOAD, SpecPolicies.HYBRID_CACHE_LOAD -> PREFILL_LEAST_REQUEST;
            case SpecPolicies.CONDUCTOR -> PREFILL_CONDUCTOR;
            default -> PREFIX_CACHE;
        };
    }

    public static Scorer decode(String policy) {
        return switch (policy) {
            case SpecPolicies.LEAST_REQUEST -> DECODE_LEAST_REQUEST;
            case SpecPolicies.CONDUCTOR -> DECODE_CONDUCTOR;
            default -> LOAD_BALANCING;
        };
    }

    /** The load-balancing scorer, which the cascade retries a NaN score with (reference §3 step H). */
    public static Scorer loadBalancing() {
        return LOAD_BALANCING;
    }

    /** False for the policies that still score with a stand-in (see the class comment). */
    public static boolean implemented(String policy) {
        return !SpecPolicies.TOKEN_LOAD.equals(policy) && !SpecPolicies.HYBRID_CACHE_LOAD.equals(policy);
    }
}
