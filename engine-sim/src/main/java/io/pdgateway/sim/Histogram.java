package io.pdgateway.sim;

/** A Prometheus histogram with fixed upper bounds: cumulative bucket counts, sum and count. */
public final class Histogram {

    private final double[] bounds;
    private final long[] counts;
    private double sum;
    private long count;

    Histogram(double[] bounds) {
        this.bounds = bounds.clone();
        this.counts = new long[bounds.length];
    }

    void observe(double value) {
        for (int i = 0; i < bounds.length; i++) {
            if (value <= bounds[i]) {
                counts[i]++;
            }
        }
        sum += value;
        count++;
    }

    public double[] bounds() {
        return bounds.clone();
    }

    /** Cumulative count of observations at or below {@code bounds()[i]}. */
    public long cumulative(int i) {
        return counts[i];
    }

    public double sum() {
        return sum;
    }

    public long count() {
        return count;
    }
}
