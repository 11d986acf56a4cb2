package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.List;

/** Step 3's scorer: the one of the request's prefill policy (its profile's prefillScorePolicy, else the environment's). */
public final class PrefillPolicyScorer implements Scorer {
    public static final String NAME = "prefill-policy";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public double[] score(RoutingContext context, List<Pod> candidates) {
        return context.request().knobs().prefillScorePolicy().scorer().score(context, candidates);
    }
}
