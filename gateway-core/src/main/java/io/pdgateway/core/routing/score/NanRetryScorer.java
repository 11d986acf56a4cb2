package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
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
        double[] retry = null;
        for (int i = 0; i < scores.length; i++) {
            if (Double.isNaN(scores[i])) {
                if (retry == null) {
                    retry = fallback.score(context, candidates);
                }
                scores[i] = retry[i];
            }
        }
        return scores;
    }
}
