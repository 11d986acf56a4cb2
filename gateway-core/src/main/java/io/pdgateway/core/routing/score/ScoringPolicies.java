package io.pdgateway.core.routing.score;

import io.pdgateway.core.routing.Scorer;
import io.pdgateway.core.spec.SpecPolicies;

/** Policy name → scorer for spec steps 3 and 4. Names were validated when the knobs were built. */
public final class ScoringPolicies {
    private static final Scorer PREFIX_CACHE = new PrefixCacheScorer();
    private static final Scorer PREFILL_LEAST_REQUEST = new InFlightPrefillScorer();
    private static final Scorer PREFILL_CONDUCTOR = new ConductorPrefillScorer();
    private static final Scorer LOAD_BALANCING = new LoadBalancingDecodeScorer();
    private static final Scorer DECODE_LEAST_REQUEST = new RunningRequestsDecodeScorer();
    private static final Scorer DECODE_CONDUCTOR = new ConductorDecodeScorer();
    private static final Scorer PREFILL_TOKEN_LOAD = new TokenLoadPrefillScorer();
    private static final Scorer HYBRID_CACHE_LOAD = new HybridCacheLoadScorer();
    private static final Scorer DECODE_TOKEN_LOAD = new TokenLoadDecodeScorer();

    private ScoringPolicies() {}

    public static Scorer prefill(String policy) {
        return switch (policy) {
            case SpecPolicies.LEAST_REQUEST -> PREFILL_LEAST_REQUEST;
            case SpecPolicies.TOKEN_LOAD -> PREFILL_TOKEN_LOAD;
            case SpecPolicies.HYBRID_CACHE_LOAD -> HYBRID_CACHE_LOAD;
            case SpecPolicies.CONDUCTOR -> PREFILL_CONDUCTOR;
            default -> PREFIX_CACHE;
        };
    }

    public static Scorer decode(String policy) {
        return switch (policy) {
            case SpecPolicies.LEAST_REQUEST -> DECODE_LEAST_REQUEST;
            case SpecPolicies.CONDUCTOR -> DECODE_CONDUCTOR;
            case SpecPolicies.TOKEN_LOAD -> DECODE_TOKEN_LOAD;
            default -> LOAD_BALANCING;
        };
    }

    /** The load-balancing scorer, which the cascade retries a NaN score with (reference §3 step H). */
    public static Scorer loadBalancing() {
        return LOAD_BALANCING;
    }

}
