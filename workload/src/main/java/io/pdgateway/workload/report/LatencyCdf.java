package io.pdgateway.workload.report;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.DoubleHistogram;

/**
 * One latency's distribution as points (milliseconds, percentile) for charts and JSON: every whole percentile plus
 * the tail (99.5, 99.9, 100), where the differences between gateways and policies live.
 */
public record LatencyCdf(String metric, List<Point> points) {
    public record Point(double millis, double percentile) {}

    static final double[] TAIL = {99.5, 99.9, 100};

    public LatencyCdf {
        points = List.copyOf(points);
    }

    public static LatencyCdf of(String metric, DoubleHistogram histogram) {
        List<Point> points = new ArrayList<>();
        if (histogram.getTotalCount() > 0) {
            for (int p = 0; p <= 99; p++) {
                points.add(new Point(histogram.getValueAtPercentile(p), p));
            }
            for (double p : TAIL) {
                points.add(new Point(p == 100 ? histogram.getMaxValue() : histogram.getValueAtPercentile(p), p));
            }
        }
        return new LatencyCdf(metric, points);
    }
}
