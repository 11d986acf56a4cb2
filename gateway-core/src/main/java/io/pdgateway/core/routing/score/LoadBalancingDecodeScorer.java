package io.pdgateway.core.routing.score;

import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.List;

/**
 * Spec step 4, decode policy load_balancing (the default):
 * (w_run × reqs / max_reqs + w_thru × (1 − throughput / max_throughput)) / (free / max_free). A pod that is busy,
 * already fast at generating, or short of KV scores higher (worse).
 */
public final class LoadBalancingDecodeScorer implements Scorer {
    public static final String NAME = "load_balancing";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public double[] score(RoutingContext context, List<Pod> candidates) {
        DecodeInputs in = DecodeInputs.of(candidates, context.load());
        PdKnobs knobs = context.request().knobs();
        double[] scores = DecisionBuffers.scores(context.load(), Use.DECODE_SCORES, candidates.size());
        for (int i = 0; i < scores.length; i++) {
            double numerator = knobs.decodeLbWeightRunning() * in.count(i) / in.maxCount
                    + knobs.decodeLbWeightThroughput() * (1 - in.throughput(i) / in.maxThroughput);
            scores[i] = numerator / (in.free(i) / in.maxFree);
        }
        return scores;
    }
}
