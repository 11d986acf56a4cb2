package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.LoadView;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.Arrays;
import java.util.List;

/**
 * Spec step 3's filter as a scorer decorator: prefill pods whose in-flight count is more than N sample standard
 * deviations above the mean are not scored (NaN, so they cannot be picked; N =
 * AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR); the rest are scored by the inner scorer among themselves. With two
 * pods it never fires: the sample deviation of two values exceeds half their difference.
 */
public final class StddevSkipScorer implements Scorer {
    public static final String NAME = "prefill-stddev-skip";

    private final Scorer inner;

    public StddevSkipScorer(Scorer inner) {
        this.inner = inner;
    }

    @Override
    public String name() {
        return NAME + "(" + inner.name() + ")";
    }

    @Override
    public double[] score(RoutingContext context, List<Pod> candidates) {
        boolean[] keep = kept(candidates, context.load(), context.stddevFactor());
        return SubsetScores.of(inner, context, candidates, keep, Double.NaN, Use.PREFILL_SUBSET_SCORES);
    }

    /** true at index i when pod i stays within mean + factor · sd of the in-flight prefill counts. */
    static boolean[] kept(List<Pod> pods, LoadView load, double factor) {
        int n = pods.size();
        boolean[] keep = DecisionBuffers.flags(load, Use.PREFILL_KEPT, n);
        Arrays.fill(keep, true);
        if (n <= 1) {
            return keep;
        }
        double[] counts = InFlightCounts.of(pods, load);
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += counts[i];
        }
        double mean = sum / n;
        double squares = 0;
        for (double c : counts) {
            squares += (c - mean) * (c - mean);
        }
        double limit = mean + factor * Math.sqrt(squares / (n - 1));
        for (int i = 0; i < n; i++) {
            keep[i] = counts[i] <= limit;
        }
        return keep;
    }
}
