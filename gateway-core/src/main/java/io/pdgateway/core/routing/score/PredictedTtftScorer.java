package io.pdgateway.core.routing.score;

import io.pdgateway.core.cache.PrefixMatch;
import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.LoadView;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.List;

/**
 * Prefill policy predicted_ttft (pd-gateway's own, beyond the spec): each prefill pod scores, in milliseconds, the time
 * until a first token could leave it (the prefill leg as the pod's fitted model predicts it: the work queued ahead of
 * it, then this prompt's uncached part after the part its prefix cache holds; plus the KV transfer of the whole prompt
 * to the decode pod, which prefix hits do not shrink: reference/engine-timing.md §4) plus the compute the choice adds
 * to the pod, weighted by predictedTtftWorkWeight: that is how long every request queued behind it will wait the
 * longer. Greedy on the first token alone, the policy moved conversations off the pod holding their prefix whenever a
 * neighbour was briefly idler, recomputing prefixes and losing about 15 % of sustainable rate on a prefix-heavy mix
 * (routing-sim); counting the added work once more kept them where their cache is unless the queue there costs more.
 * Lower is better; the pair picker adds the decode side.
 */
public final class PredictedTtftScorer implements Scorer {
    public static final String NAME = "predicted_ttft";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public double[] score(RoutingContext context, List<Pod> candidates) {
        LoadView load = context.load();
        PrefixMatch match = context.prefix().match();
        PdKnobs knobs = context.request().knobs();
        long prompt = context.request().promptTokens();
        double transfer = transferMillis(knobs, prompt);
        double[] scores = new double[candidates.size()];
        for (int i = 0; i < scores.length; i++) {
            Pod pod = candidates.get(i);
            long cached = Math.min(prompt, match.cachedTokens(pod));
            double answer = load.predictPrefillMillis(pod, prompt - cached, cached);
            double work = load.predictPrefillComputeMillis(pod, prompt - cached, cached);
            scores[i] = Double.isNaN(answer) ? Double.NaN : answer + transfer + knobs.predictedTtftWorkWeight() * work;
        }
        return scores;
    }

    /** KV transfer of the whole prompt: a setup cost plus a time per token (the link's bandwidth for the KV size). */
    static double transferMillis(PdKnobs knobs, long promptTokens) {
        return knobs.kvTransferSetupMillis() + knobs.kvTransferMillisPer1kTokens() * promptTokens / 1000.0;
    }
}
