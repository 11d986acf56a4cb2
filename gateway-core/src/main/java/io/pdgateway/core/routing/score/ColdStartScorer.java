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
 * Spec step 4's cold start as a scorer decorator: once any candidate has a running count, a pod without one (freshly
 * started, never routed to) scores 1 + its pending decodes, so it competes without drawing all traffic at once; the
 * warm pods are scored by the inner scorer among themselves. Policies whose ledger scores every pod alike (token_load)
 * skip it.
 */
public final class ColdStartScorer implements Scorer {
    public static final String NAME = "decode-cold-start";

    private final Scorer inner;

    public ColdStartScorer(Scorer inner) {
        this.inner = inner;
    }

    @Override
    public String name() {
        return NAME + "(" + inner.name() + ")";
    }

    @Override
    public double[] score(RoutingContext context, List<Pod> candidates) {
        LoadView load = context.load();
        if (!context.request().knobs().decodeScorePolicy().coldStartsNewPods()) {
            return inner.score(context, candidates);
        }
        // The decode fast path usually read every pod's running metric already in this decision.
        DecodeInputs read = load instanceof ClusterLoad decision ? decision.sideReads().decodeInputs(candidates) : null;
        boolean[] warm = DecisionBuffers.flags(load, Use.DECODE_WARM, candidates.size());
        boolean anyWarm = false;
        boolean allWarm = true;
        for (int i = 0; i < warm.length; i++) {
            warm[i] = read != null ? read.observed(i) : load.hasRunningMetric(candidates.get(i));
            anyWarm |= warm[i];
            allWarm &= warm[i];
        }
        if (!anyWarm || allWarm) {
            return inner.score(context, candidates); // no pod warm yet, or (the steady state) none new
        }
        double[] cold = DecisionBuffers.doubles(load, Use.DECODE_COLD, candidates.size());
        for (int i = 0; i < cold.length; i++) {
            // Read only where it is the score: a warm pod's place is the inner scorer's, and warm pods are most.
            cold[i] = warm[i] ? Double.NaN : 1.0 + load.pendingDecodes(candidates.get(i));
        }
        return SubsetScores.of(inner, context, candidates, warm, cold, Use.DECODE_SUBSET_SCORES);
    }
}
