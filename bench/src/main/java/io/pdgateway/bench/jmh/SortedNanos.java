package io.pdgateway.bench.jmh;

/** Percentiles of this package's tools, read from nanosecond timings sorted in place. */
final class SortedNanos {
    private SortedNanos() {}

    /** The value at index ⌊n × quantile⌋ (the last for 1) of sorted nanoseconds, in microseconds. */
    static double micros(long[] sorted, double quantile) {
        return sorted[Math.min(sorted.length - 1, (int) (sorted.length * quantile))] / 1e3;
    }
}
