package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.LoadView;
import io.pdgateway.core.routing.RouteRequest;
import io.pdgateway.core.routing.Scorer;
import java.util.List;

/** Spec step 4, decode policy least_request: score = requests this gateway has running on the pod. */
public final class RunningRequestsDecodeScorer implements Scorer {
    public static final String NAME = "least_request";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public double[] score(RouteRequest request, List<Pod> candidates, LoadView load) {
        double[] scores = new double[candidates.size()];
        for (int i = 0; i < scores.length; i++) {
            scores[i] = load.runningRequests(candidates.get(i));
        }
        return scores;
    }
}
