package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.List;

/** Spec step 3, prefill policy least_request: score = the pod's in-flight prefill requests. */
public final class InFlightPrefillScorer implements Scorer {
    public static final String NAME = "least_request";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public double[] score(RoutingContext context, List<Pod> candidates) {
        double[] counts = InFlightCounts.of(candidates, context.load());
        double[] scores = DecisionBuffers.scores(context.load(), Use.PREFILL_SCORES, candidates.size());
        System.arraycopy(counts, 0, scores, 0, scores.length); // the scores are the policy's own array
        return scores;
    }
}
