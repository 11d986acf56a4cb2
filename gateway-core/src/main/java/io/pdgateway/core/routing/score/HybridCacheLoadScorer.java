package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.List;

/**
 * Spec step 3, prefill policy hybrid_cache_load: with r = match% / 100 (0 below AIBRIX_MIN_MATCH_PCT) and
 * discount = 1 − r² × factor, a busy pod (load ≥ 1) scores load × discount and an idle pod the bare discount. So the
 * cache decides between idle pods and the load between busy ones; the square keeps small matches from mattering.
 */
public final class HybridCacheLoadScorer implements Scorer {
    public static final String NAME = "hybrid_cache_load";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public double[] score(RoutingContext context, List<Pod> candidates) {
        int[] pct = PrefixMatches.of(context, candidates, context.request().knobs().minMatchPct());
        double kvWeight = context.request().knobs().tokenLoadKvWeight();
        double factor = context.request().knobs().hybridCacheLoadFactor();
        double[] scores = DecisionBuffers.scores(context.load(), Use.PREFILL_SCORES, candidates.size());
        TokenLoadPrefillScorer.loads(context.load(), candidates, kvWeight, scores); // the loads, discounted below
        for (int i = 0; i < scores.length; i++) {
            double r = pct[i] / 100.0;
            double discount = 1 - r * r * factor;
            double load = scores[i];
            scores[i] = load >= 1 ? load * discount : discount;
        }
        return scores;
    }
}
