package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.List;

/**
 * Spec step 3, prefill policy token_load: active_tokens + kv_weight × kv_tokens. A pod computing one 30,000-token
 * prompt weighs as much as many short ones, which least_request cannot see.
 */
public final class TokenLoadPrefillScorer implements Scorer {
    public static final String NAME = "token_load";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public double[] score(RoutingContext context, List<Pod> candidates) {
        double kvWeight = context.request().knobs().tokenLoadKvWeight();
        double[] scores = DecisionBuffers.scores(context.load(), Use.PREFILL_SCORES, candidates.size());
        for (int i = 0; i < scores.length; i++) {
            scores[i] = load(context, candidates.get(i), kvWeight);
        }
        return scores;
    }

    static double load(RoutingContext context, Pod pod, double kvWeight) {
        return context.load().activeTokens(pod) + kvWeight * context.load().kvTokens(pod);
    }
}
