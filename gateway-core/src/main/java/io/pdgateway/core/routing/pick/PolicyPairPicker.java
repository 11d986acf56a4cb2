package io.pdgateway.core.routing.pick;

import io.pdgateway.core.routing.PairPicker;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.ScoredPods;

/**
 * Step 5's picker for the request's prefill policy: the spec's normalised final score, or, when the prefill policy
 * predicts the first token in milliseconds (predicted_ttft), the earliest predicted first token.
 */
public final class PolicyPairPicker implements PairPicker {
    public static final String NAME = "policy-pair";
    private final PairPicker spec = new FinalPairPicker();
    private final PairPicker predicted = new PredictedTtftPairPicker();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RouteDecision pick(RoutingContext context, PdCandidates candidates, ScoredPods prefill, ScoredPods decode) {
        PairPicker picker = context.request().knobs().prefillScorePolicy().picksByPredictedTtft() ? predicted : spec;
        return picker.pick(context, candidates, prefill, decode);
    }
}
