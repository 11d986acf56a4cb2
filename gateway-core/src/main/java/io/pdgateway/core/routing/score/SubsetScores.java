package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.ClusterLoad;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.PodSubset;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.List;

/** Scores only the candidates a decorator keeps, with the inner scorer over that subset, aligned back to the whole. */
final class SubsetScores {
    private SubsetScores() {}

    /**
     * @param keep which candidates the inner scorer sees (it scores them as a batch: maxima and means are over them)
     * @param others the score of every candidate not kept
     * @param use the working array the side's scores go to when some candidate is left out (they are the side's
     *     scores: see {@link DecisionBuffers#scores})
     */
    static double[] of(Scorer inner, RoutingContext context, List<Pod> candidates, boolean[] keep, double[] others,
            Use use) {
        int keptCount = 0;
        for (int i = 0; i < candidates.size(); i++) {
            keptCount += keep[i] ? 1 : 0;
        }
        if (keptCount == candidates.size()) {
            return inner.score(context, candidates); // the usual case: the inner scorer sees every candidate
        }
        PodSubset kept = DecisionBuffers.subset(context.load(), keptPods(use), candidates, keptCount);
        for (int i = 0; i < keep.length; i++) {
            if (keep[i]) {
                kept.add(i);
            }
        }
        if (context.load() instanceof ClusterLoad decision) {
            // The inner scorer's reads of the kept pods are then copies of the whole side's.
            decision.sideReads().narrowed(kept, candidates, keep);
        }
        double[] values = kept.isEmpty() ? new double[0] : inner.score(context, kept);
        if (values.length != kept.size()) {
            throw new IllegalStateException("stage " + inner.name() + " returned " + values.length + " scores for "
                    + kept.size() + " pods");
        }
        double[] scores = DecisionBuffers.scores(context.load(), use, candidates.size());
        for (int i = 0, j = 0; i < scores.length; i++) {
            scores[i] = keep[i] ? values[j++] : others[i];
        }
        return scores;
    }

    /** The list of the kept pods, by side: one side's must not be the other's. */
    private static Use keptPods(Use scores) {
        return scores == Use.PREFILL_SUBSET_SCORES ? Use.PREFILL_KEPT_PODS : Use.DECODE_WARM_PODS;
    }

    /**
     * As {@link #of(Scorer, RoutingContext, List, boolean[], double[], Use)}, with one score for every candidate not
     * kept.
     */
    static double[] of(Scorer inner, RoutingContext context, List<Pod> candidates, boolean[] keep, double other,
            Use use) {
        int keptCount = 0;
        for (int i = 0; i < candidates.size(); i++) {
            keptCount += keep[i] ? 1 : 0;
        }
        if (keptCount == candidates.size()) {
            return inner.score(context, candidates);
        }
        double[] others = DecisionBuffers.doubles(context.load(), Use.SUBSET_OTHERS, candidates.size());
        java.util.Arrays.fill(others, other);
        return of(inner, context, candidates, keep, others, use);
    }
}
