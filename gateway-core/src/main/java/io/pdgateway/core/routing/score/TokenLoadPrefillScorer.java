package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.ClusterLoad;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.LoadView;
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
        loads(context.load(), candidates, kvWeight, scores);
        return scores;
    }

    /**
     * Each candidate's active_tokens + kvWeight × kv_tokens into {@code into}: by slot when the candidates are the
     * model's own prefill side (no pod's object read to find its rows), else pod by pod.
     */
    static void loads(LoadView load, List<Pod> candidates, double kvWeight, double[] into) {
        ClusterLoad bySlot = load instanceof ClusterLoad decision ? decision : null;
        int[] slots = bySlot == null ? null : bySlot.slotsOf(candidates);
        for (int i = 0; i < into.length; i++) {
            if (slots != null) {
                into[i] = bySlot.activeTokensAt(slots[i]) + kvWeight * bySlot.kvTokensAt(slots[i]);
            } else {
                Pod pod = candidates.get(i);
                into[i] = load.activeTokens(pod) + kvWeight * load.kvTokens(pod);
            }
        }
    }
}
