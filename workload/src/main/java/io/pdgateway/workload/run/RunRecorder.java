package io.pdgateway.workload.run;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.DoubleHistogram;

/**
 * Collects one run as it happens, from whichever event loops the responses come back on: every request's result,
 * every gap between two tokens, and how many requests were in flight each second.
 */
public final class RunRecorder implements ChunkGapSink {
    /** Three significant digits: percentiles exact to 0.1 %, plenty for latency tables. */
    public static final int PRECISION = 3;

    private final List<RequestResult> results = new ArrayList<>();
    private final DoubleHistogram gaps = new DoubleHistogram(PRECISION);
    private final List<Integer> inFlightBySecond = new ArrayList<>();
    private int sent;
    private int errors;

    public synchronized void sent() {
        sent++;
    }

    public synchronized void finished(RequestResult result) {
        results.add(result);
        if (result.failed()) {
            errors++;
        }
    }

    @Override
    public synchronized void gap(double millis) {
        // The histogram's range adapts, but a value of exactly 0 (two tokens in one read) has no magnitude.
        gaps.recordValue(Math.max(millis, RunRecording.MIN_RECORDED_MILLIS));
    }

    /** Called once a second by the runner: requests sent and not yet finished. */
    public synchronized void sampleInFlight() {
        inFlightBySecond.add(sent - results.size());
    }

    public synchronized int sentCount() {
        return sent;
    }

    public synchronized int finishedCount() {
        return results.size();
    }

    public synchronized int errorCount() {
        return errors;
    }

    /** What was recorded so far, copied: the run may still be going (the runner's deadline passed). */
    public synchronized RunRecording snapshot(double wallSeconds, int abandoned) {
        return new RunRecording(new ArrayList<>(results), gaps.copy(), new ArrayList<>(inFlightBySecond), wallSeconds,
                abandoned);
    }
}
