package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.List;

/**
 * Spec step 3, prefill policy prefix_cache (the default): (100 − match%) × 0.1 + reqs / max_reqs. The cache term
 * spans 0..10 and the load term 0..1, so any counted match outweighs the whole load range.
 */
public final class PrefixCacheScorer implements Scorer {
    public static final String NAME = "prefix_cache";
    /** Spec formula: each missing match percent costs 0.1. */
    static final double CACHE_WEIGHT = 0.1;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public double[] score(RoutingContext context, List<Pod> candidates) {
        int[] pct = PrefixMatches.of(context, candidates, context.request().knobs().minMatchPct());
        double[] counts = InFlightCounts.of(candidates, context.load());
        double[] scores = DecisionBuffers.scores(context.load(), Use.PREFILL_SCORES, candidates.size());
        double maxRequests = 1;
        for (double count : counts) {
            if (count > maxRequests) { // compared, not Math.max: see DecodeImbalanceFastPath.spread
                maxRequests = count;
            }
        }
        for (int i = 0; i < scores.length; i++) {
            scores[i] = (100 - pct[i]) * CACHE_WEIGHT + counts[i] / maxRequests;
        }
        return scores;
    }
}
