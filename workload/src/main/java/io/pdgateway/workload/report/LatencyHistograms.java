package io.pdgateway.workload.report;

import io.pdgateway.workload.run.RequestResult;
import io.pdgateway.workload.run.RunRecorder;
import io.pdgateway.workload.run.RunRecording;
import org.HdrHistogram.DoubleHistogram;

/**
 * The latency histograms of a run's successful requests (a failed request's latency means nothing), plus the send
 * lag of every request.
 */
public record LatencyHistograms(DoubleHistogram ttfb, DoubleHistogram ttft, DoubleHistogram tpot, DoubleHistogram e2e,
        DoubleHistogram lag) {
    public static LatencyHistograms of(RunRecording run) {
        LatencyHistograms h = new LatencyHistograms(histogram(), histogram(), histogram(), histogram(), histogram());
        for (RequestResult result : run.results()) {
            record(h.lag, result.lagMillis());
            if (result.failed()) {
                continue;
            }
            record(h.ttfb, result.ttfbMillis());
            record(h.ttft, result.ttftMillis());
            record(h.tpot, result.tpotMillis());
            record(h.e2e, result.e2eMillis());
        }
        return h;
    }

    private static DoubleHistogram histogram() {
        return new DoubleHistogram(RunRecorder.PRECISION);
    }

    private static void record(DoubleHistogram histogram, double millis) {
        if (millis >= 0) {
            histogram.recordValue(Math.max(millis, RunRecording.MIN_RECORDED_MILLIS));
        }
    }
}
