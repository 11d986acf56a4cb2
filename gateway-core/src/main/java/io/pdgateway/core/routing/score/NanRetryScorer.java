package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.List;

/**
 * Reference §3 step H as a scorer decorator: a pod the inner scorer cannot score (NaN) gets the fallback scorer's
 * score instead, computed over the same candidates, so one missing signal does not drop a pod from step 5.
 */
public final class NanRetryScorer implements Scorer {
    public static final String NAME = "nan-retry";

    private final Scorer inner;
    private final Scorer fallback;

    public NanRetryScorer(Scorer inner, Scorer fallback) {
        this.inner = inner;
        this.fallback = fallback;
    }

    @Override
    public String name() {
        return NAME + "(" + inner.name() + ", " + fallback.name() + ")";
    }

    @Override
    public double[] score(RoutingContext context, List<Pod> candidates) {
        double[] scores = inner.score(context, candidates);
        int firstNan = 0;
        while (firstNan < scores.length && !Double.isNaN(scores[firstNan])) {
            firstNan++;
        }
        if (firstNan == scores.length) {
            return scores;
        }
        // The inner scores are copied first: both scorers may fill the same working array (DECODE_SCORES), and the
        // fallback's would overwrite the inner's.
        double[] merged = DecisionBuffers.scores(context.load(), Use.DECODE_RETRY_SCORES, scores.length);
        System.arraycopy(scores, 0, merged, 0, scores.length);
        double[] retry = fallback.score(context, candidates);
        for (int i = firstNan; i < merged.length; i++) {
            if (Double.isNaN(merged[i])) {
                merged[i] = retry[i];
            }
        }
        return merged;
    }
}
