package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.List;

/**
 * Spec step 4, decode policy conductor: an estimated time between tokens in ms (reference §3 step H): 1000 /
 * throughput (20 ms when unknown), scaled by batch pressure (1 + 1 / max(reqs, 1)), ×1.5 when KV use exceeds 90 %.
 */
public final class ConductorDecodeScorer implements Scorer {
    public static final String NAME = "conductor";
    /** Reference §3: the TBT assumed for a pod with no throughput figure. */
    static final double DEFAULT_TBT_MS = 20.0;
    /** Reference §3: KV use above this fraction counts as GPU pressure. */
    static final double GPU_PRESSURE_USAGE = 0.9;
    static final double GPU_PRESSURE_PENALTY = 1.5;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public double[] score(RoutingContext context, List<Pod> candidates) {
        DecodeInputs in = DecodeInputs.of(candidates, context.load());
        double[] scores = DecisionBuffers.scores(context.load(), Use.DECODE_SCORES, candidates.size());
        for (int i = 0; i < scores.length; i++) {
            double tbt = in.throughput(i) > 0 ? 1000 / in.throughput(i) : DEFAULT_TBT_MS;
            double estimate = tbt * (1 + 1 / Math.max(in.count(i), 1));
            if (1 - in.free(i) / 100 > GPU_PRESSURE_USAGE) {
                estimate *= GPU_PRESSURE_PENALTY;
            }
            scores[i] = estimate;
        }
        return scores;
    }
}
