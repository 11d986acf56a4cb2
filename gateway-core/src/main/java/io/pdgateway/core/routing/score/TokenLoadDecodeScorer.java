package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.LoadView;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.List;

/**
 * Spec step 4, decode policy token_load: decode_tokens + generated_tokens. The second term estimates the output the
 * pod's outstanding requests have produced so far (it sits in KV too): each adds rate × (now − routed_at), where rate
 * is the pod's scraped generation throughput per running request, or the mean of the other pods' rates when the pod
 * has none. AIBRIX_DECODE_TOKEN_LOAD_OUTPUT_GROWTH=false scores prompts only.
 */
public final class TokenLoadDecodeScorer implements Scorer {
    public static final String NAME = "token_load";
    @Override
    public String name() {
        return NAME;
    }

    @Override
    public double[] score(RoutingContext context, List<Pod> candidates) {
        LoadView load = context.load();
        int n = candidates.size();
        double[] scores = DecisionBuffers.scores(load, Use.DECODE_SCORES, n);
        double[] rates = DecisionBuffers.doubles(load, Use.DECODE_RATE, n);
        double rateSum = 0;
        int rated = 0;
        DecodeLoads reads = DecodeLoads.of(candidates, load);
        for (int i = 0; i < n; i++) {
            scores[i] = reads.tokens(i);
            double throughput = reads.throughput(i);
            int running = reads.running(i);
            rates[i] = running > 0 && throughput >= 0 ? throughput / running : Double.NaN;
            if (!Double.isNaN(rates[i])) {
                rateSum += rates[i];
                rated++;
            }
        }
        if (!context.request().knobs().decodeTokenLoadOutputGrowth()) {
            return scores;
        }
        for (int i = 0; i < n; i++) {
            // A pod without a rate of its own is not in rateSum: the mean is over the other pods.
            double rate = Double.isNaN(rates[i]) ? (rated > 0 ? rateSum / rated : 0) : rates[i];
            scores[i] += rate * reads.ageSeconds(i);
        }
        return scores;
    }
}
