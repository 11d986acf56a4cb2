package io.pdgateway.workload.report;

import java.util.Arrays;

/** Exact percentiles of a set of latencies (nearest rank), deterministic for a given set. */
public final class NearestRankPercentiles {
    private final double[] sorted;

    private NearestRankPercentiles(double[] sorted) {
        this.sorted = sorted;
    }

    /** The sample of the finite values given; NaNs (no value) are left out. */
    public static NearestRankPercentiles of(double[] values) {
        double[] finite = Arrays.stream(values).filter(v -> !Double.isNaN(v)).toArray();
        Arrays.sort(finite);
        return new NearestRankPercentiles(finite);
    }

    public int count() {
        return sorted.length;
    }

    /** The smallest value with at least {@code percent} % of the sample at or below it; NaN when empty. */
    public double percentile(double percent) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(percent / 100 * sorted.length);
        return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
    }

    /** The 1st to 99th percentiles, for a CDF chart; empty when the sample is. */
    public double[] percentiles() {
        if (sorted.length == 0) {
            return new double[0];
        }
        double[] out = new double[99];
        for (int p = 1; p <= 99; p++) {
            out[p - 1] = percentile(p);
        }
        return out;
    }
}
