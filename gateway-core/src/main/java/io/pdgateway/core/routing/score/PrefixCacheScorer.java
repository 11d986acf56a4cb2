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
        // One ledger read per pod: the counts first (into the result), then the scores over them.
        double[] scores = DecisionBuffers.scores(context.load(), Use.PREFILL_SCORES, candidates.size());
        double maxRequests = 1;
        for (int i = 0; i < scores.length; i++) {
            scores[i] = context.load().inFlightPrefills(candidates.get(i));
            if (scores[i] > maxRequests) { // compared, not Math.max: see DecodeImbalanceFastPath.spread
                maxRequests = scores[i];
            }
        }
        for (int i = 0; i < scores.length; i++) {
            scores[i] = (100 - pct[i]) * CACHE_WEIGHT + scores[i] / maxRequests;
        }
        return scores;
    }
}
