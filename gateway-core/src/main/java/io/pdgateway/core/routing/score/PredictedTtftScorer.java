package io.pdgateway.core.routing.score;

import io.pdgateway.core.cache.PrefixMatch;
import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodSlots;
import io.pdgateway.core.predict.PrefillState;
import io.pdgateway.core.routing.ClusterLoad;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
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
 *
 * <p>Recomputing a prefix that other pods hold is charged in full only when few requests share it. Warming a pod
 * with a popular prefix is an investment the next requests carrying it share ({@link WarmUpShares}): charged whole,
 * one shared system prompt drew a 1,000-pod cluster's traffic onto the few pods that held it (prefill imbalance 50×,
 * routing-sim's shared-system preset), while the recompute it avoided was 45 ms once per pod. This request bears
 * (holders + 1) / (requests that carried the prefix over the last ten seconds) of it, at most all. Lower is better;
 * the pair picker adds the decode side.
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
        double weight = knobs.predictedTtftWorkWeight();
        double[] scores = DecisionBuffers.scores(context.load(), Use.PREFILL_SCORES, candidates.size());
        int[] held = DecisionBuffers.ints(load, Use.PREFILL_HELD, scores.length);
        // Each candidate's model and queue, copied once: every prediction below is arithmetic on the copy.
        double[] states = DecisionBuffers.doublesAtLeast(load, Use.PREFILL_STATES, PrefillState.WIDTH * scores.length);
        // By slot where the decision knows them: neither the pods' objects nor a map is read then.
        ClusterLoad bySlot = load instanceof ClusterLoad decision ? decision : null;
        int[] slots = bySlot == null ? null : bySlot.slotsOfCandidates(candidates, Use.PREFILL_SLOTS);
        PodSlots snapshot = slots == null ? null : bySlot.slots();
        boolean matchBySlot = snapshot != null && match.keptBy(snapshot.computingPositions());
        long[] hashes = context.request().prefixHashes();
        int blocks = hashes == null ? 0 : hashes.length;
        for (int i = 0; i < held.length; i++) {
            int matched = matchBySlot ? match.blocksAt(snapshot.computingPositionAt(slots[i]))
                    : match.blocks(candidates.get(i));
            held[i] = Math.min(matched, blocks);
        }
        WarmUpShares warmUp = WarmUpShares.of(depth -> load.prefixRequests(hashes, depth), match.blockTokens(), prompt,
                held);
        for (int i = 0; i < scores.length; i++) {
            int at = PrefillState.WIDTH * i;
            boolean known = slots != null ? bySlot.prefillStateAt(slots[i], states, at)
                    : load.prefillState(candidates.get(i), states, at);
            if (!known) {
                scores[i] = Double.NaN;
                continue;
            }
            // held[i] is the pod's match in blocks, within the prompt's blocks
            long cached = match.cachedTokens(held[i], prompt);
            double work = PrefillState.computeMillis(states, at, prompt - cached, cached);
            double answer = PrefillState.answerMillis(states, at, prompt - cached, cached, work);
            if (Double.isNaN(answer)) {
                scores[i] = Double.NaN;
                continue;
            }
            // The recompute of a prefix other pods hold, beyond this request's share of it, counted neither in the
            // first token nor in the added work: see WarmUpShares.
            double waived = warmUp.discountMillis(states, at, held[i]);
            scores[i] = answer + transfer + weight * work - (1 + weight) * waived;
        }
        return scores;
    }

    /** KV transfer of the whole prompt: a setup cost plus a time per token (the link's bandwidth for the KV size). */
    static double transferMillis(PdKnobs knobs, long promptTokens) {
        return knobs.kvTransferSetupMillis() + knobs.kvTransferMillisPer1kTokens() * promptTokens / 1000.0;
    }
}
