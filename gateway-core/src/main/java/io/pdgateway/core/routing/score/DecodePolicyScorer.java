package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.List;

/** Step 4's scorer: the one of the request's decode policy (its profile's decodeScorePolicy, else the environment's). */
public final class DecodePolicyScorer implements Scorer {
    public static final String NAME = "decode-policy";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public double[] score(RoutingContext context, List<Pod> candidates) {
        return context.request().knobs().decodeScorePolicy().scorer().score(context, candidates);
    }
}
