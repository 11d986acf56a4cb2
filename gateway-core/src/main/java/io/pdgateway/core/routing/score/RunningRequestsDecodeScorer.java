package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.List;

/** Spec step 4, decode policy least_request: score = running + pending requests this gateway routed to the pod. */
public final class RunningRequestsDecodeScorer implements Scorer {
    public static final String NAME = "least_request";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public double[] score(RoutingContext context, List<Pod> candidates) {
        double[] scores = DecisionBuffers.scores(context.load(), Use.DECODE_SCORES, candidates.size());
        for (int i = 0; i < scores.length; i++) {
            scores[i] = context.load().runningRequests(candidates.get(i));
        }
        return scores;
    }
}
