package io.pdgateway.workload.report;

import io.pdgateway.workload.run.RequestResult;
import io.pdgateway.workload.run.RunRecorder;
import io.pdgateway.workload.run.RunRecording;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.DoubleHistogram;

/**
 * A run second by second: what was sent, what finished, the output rate, TTFT of the requests sent in that second,
 * and requests in flight. Shows warm-up, saturation and recovery that a whole-run percentile hides.
 */
public record TimeSeries(List<Point> points) {
    /**
     * @param second       seconds from the start of the run
     * @param sent         requests sent in this second
     * @param completed    requests that finished successfully in this second
     * @param errors       requests that failed in this second
     * @param outputTokens tokens of the requests that finished in this second
     * @param ttftP50Millis TTFT median of the successful requests sent in this second (NaN when none)
     * @param ttftP99Millis TTFT p99 of the same
     * @param inFlight     requests in flight at the end of this second (-1 when not sampled)
     */
    public record Point(int second, int sent, int completed, int errors, long outputTokens, double ttftP50Millis,
            double ttftP99Millis, int inFlight) {}

    public TimeSeries {
        points = List.copyOf(points);
    }

    public static TimeSeries of(RunRecording run) {
        int seconds = (int) Math.ceil(run.wallSeconds()) + 1;
        for (RequestResult result : run.results()) {
            seconds = Math.max(seconds, (int) ((result.startMillis() + Math.max(0, result.e2eMillis())) / 1000) + 1);
        }
        int[] sent = new int[seconds];
        int[] completed = new int[seconds];
        int[] errors = new int[seconds];
        long[] tokens = new long[seconds];
        List<DoubleHistogram> ttft = new ArrayList<>();
        for (int i = 0; i < seconds; i++) {
            ttft.add(new DoubleHistogram(RunRecorder.PRECISION));
        }
        for (RequestResult result : run.results()) {
            int start = (int) (result.startMillis() / 1000);
            int end = (int) ((result.startMillis() + Math.max(0, result.e2eMillis())) / 1000);
            sent[start]++;
            tokens[end] += result.outputTokens();
            if (result.failed()) {
                errors[end]++;
            } else {
                completed[end]++;
                if (result.ttftMillis() >= 0) {
                    ttft.get(start).recordValue(Math.max(result.ttftMillis(), RunRecording.MIN_RECORDED_MILLIS));
                }
            }
        }
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < seconds; i++) {
            DoubleHistogram h = ttft.get(i);
            boolean any = h.getTotalCount() > 0;
            int inFlight = i < run.inFlightBySecond().size() ? run.inFlightBySecond().get(i) : -1;
            points.add(new Point(i, sent[i], completed[i], errors[i], tokens[i],
                    any ? h.getValueAtPercentile(50) : Double.NaN, any ? h.getValueAtPercentile(99) : Double.NaN,
                    inFlight));
        }
        return new TimeSeries(points);
    }
}
