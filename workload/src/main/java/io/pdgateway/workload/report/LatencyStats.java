package io.pdgateway.workload.report;

import org.HdrHistogram.DoubleHistogram;

/** Percentiles of one latency, in milliseconds; all NaN when nothing was recorded. */
public record LatencyStats(long count, double mean, double p50, double p90, double p99, double max) {
    public static LatencyStats of(DoubleHistogram histogram) {
        if (histogram.getTotalCount() == 0) {
            return new LatencyStats(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        return new LatencyStats(histogram.getTotalCount(), histogram.getMean(), histogram.getValueAtPercentile(50),
                histogram.getValueAtPercentile(90), histogram.getValueAtPercentile(99), histogram.getMaxValue());
    }

    public boolean empty() {
        return count == 0;
    }
}
