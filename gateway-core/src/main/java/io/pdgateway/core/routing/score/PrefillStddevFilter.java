package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.LoadView;
import java.util.List;

/**
 * Spec step 3: prefill pods whose in-flight count is more than N sample standard deviations above the mean are not
 * scored (N = AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR). With two pods it never fires: the sample deviation of
 * two values exceeds half their difference.
 */
public final class PrefillStddevFilter {
    private PrefillStddevFilter() {}

    /** true at index i when pod i is skipped. */
    public static boolean[] skipped(List<Pod> pods, LoadView load, double factor) {
        int n = pods.size();
        boolean[] skip = new boolean[n];
        if (n <= 1) {
            return skip;
        }
        double[] counts = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            counts[i] = load.inFlightPrefills(pods.get(i));
            sum += counts[i];
        }
        double mean = sum / n;
        double squares = 0;
        for (double c : counts) {
            squares += (c - mean) * (c - mean);
        }
        double limit = mean + factor * Math.sqrt(squares / (n - 1));
        for (int i = 0; i < n; i++) {
            skip[i] = counts[i] > limit;
        }
        return skip;
    }
}
