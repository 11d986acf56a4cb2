package io.pdgateway.core.routing.score;

import io.pdgateway.core.cache.PrefixMatch;
import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.LoadView;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.List;

/**
 * Prefill policy predicted_ttft (pd-gateway's own, beyond the spec): each prefill pod scores the time, in
 * milliseconds, until a first token could leave it: the prefill leg as the pod's fitted model predicts it (the
 * uncached tokens queued ahead of it on the pod, this prompt's uncached part after the part its prefix cache holds)
 * plus the KV transfer of the whole prompt to the decode pod (prefix hits do not shrink it: reference/engine-timing.md
 * §4). Lower is better; the pair picker adds the decode side.
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
            double prefill = load.predictPrefillMillis(pod, prompt - cached, cached);
            scores[i] = Double.isNaN(prefill) ? Double.NaN : prefill + transfer;
        }
        return scores;
    }

    /** KV transfer of the whole prompt: a setup cost plus a time per token (the link's bandwidth for the KV size). */
    static double transferMillis(PdKnobs knobs, long promptTokens) {
        return knobs.kvTransferSetupMillis() + knobs.kvTransferMillisPer1kTokens() * promptTokens / 1000.0;
    }
}
