package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.ArrayList;
import java.util.List;

/** Scores only the candidates a decorator keeps, with the inner scorer over that subset, aligned back to the whole. */
final class SubsetScores {
    private SubsetScores() {}

    /**
     * @param keep which candidates the inner scorer sees (it scores them as a batch: maxima and means are over them)
     * @param others the score of every candidate not kept
     */
    static double[] of(Scorer inner, RoutingContext context, List<Pod> candidates, boolean[] keep, double[] others) {
        int keptCount = 0;
        for (boolean k : keep) {
            keptCount += k ? 1 : 0;
        }
        if (keptCount == candidates.size()) {
            return inner.score(context, candidates); // the usual case: the inner scorer sees every candidate
        }
        List<Pod> kept = new ArrayList<>(keptCount);
        for (int i = 0; i < keep.length; i++) {
            if (keep[i]) {
                kept.add(candidates.get(i));
            }
        }
        double[] values = kept.isEmpty() ? new double[0] : inner.score(context, kept);
        if (values.length != kept.size()) {
            throw new IllegalStateException("stage " + inner.name() + " returned " + values.length + " scores for "
                    + kept.size() + " pods");
        }
        double[] scores = new double[candidates.size()];
        for (int i = 0, j = 0; i < scores.length; i++) {
            scores[i] = keep[i] ? values[j++] : others[i];
        }
        return scores;
    }

    /** As {@link #of(Scorer, RoutingContext, List, boolean[], double[])}, with one score for every candidate not kept. */
    static double[] of(Scorer inner, RoutingContext context, List<Pod> candidates, boolean[] keep, double other) {
        int keptCount = 0;
        for (boolean k : keep) {
            keptCount += k ? 1 : 0;
        }
        if (keptCount == candidates.size()) {
            return inner.score(context, candidates);
        }
        double[] others = DecisionBuffers.doubles(context.load(), Use.SUBSET_OTHERS, candidates.size());
        java.util.Arrays.fill(others, other);
        return of(inner, context, candidates, keep, others);
    }
}
