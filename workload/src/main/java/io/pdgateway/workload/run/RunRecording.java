package io.pdgateway.workload.run;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.HdrHistogram.DoubleHistogram;

/**
 * Everything one run recorded.
 *
 * @param results          one per finished request, in order of sending
 * @param chunkGaps        every gap between two consecutive tokens of a stream, over all streams
 * @param inFlightBySecond requests sent and unfinished, sampled once a second
 * @param wallSeconds      from the first send to the last finish
 * @param abandoned        requests still unfinished at the run's deadline (counted as errors by the summary)
 */
public record RunRecording(List<RequestResult> results, DoubleHistogram chunkGaps, List<Integer> inFlightBySecond,
        double wallSeconds, int abandoned) {
    /** Latencies below a microsecond are recorded as a microsecond: HdrHistogram needs a magnitude. */
    public static final double MIN_RECORDED_MILLIS = 0.001;

    public RunRecording {
        results = results.stream().sorted(Comparator.comparingDouble(RequestResult::startMillis)).toList();
        inFlightBySecond = List.copyOf(inFlightBySecond);
    }

    /**
     * Several runs against one target as if they were one, laid end to end in time (the overhead benchmark
     * interleaves short runs against each target, so machine noise hits all targets alike).
     */
    public static RunRecording concat(List<RunRecording> runs) {
        List<RequestResult> results = new ArrayList<>();
        DoubleHistogram gaps = new DoubleHistogram(RunRecorder.PRECISION);
        List<Integer> inFlight = new ArrayList<>();
        double offsetMillis = 0;
        int abandoned = 0;
        for (RunRecording run : runs) {
            for (RequestResult r : run.results()) {
                results.add(new RequestResult(r.startMillis() + offsetMillis, r.lagMillis(), r.status(), r.route(),
                        r.fallback(), r.ttfbMillis(), r.ttftMillis(), r.tpotMillis(), r.e2eMillis(), r.outputTokens(),
                        r.promptTokens(), r.error()));
            }
            gaps.add(run.chunkGaps());
            // Pad each run to whole seconds so the in-flight samples stay aligned with the shifted start times.
            int seconds = (int) Math.ceil(run.wallSeconds());
            for (int i = 0; i < seconds; i++) {
                inFlight.add(i < run.inFlightBySecond().size() ? run.inFlightBySecond().get(i) : 0);
            }
            offsetMillis += seconds * 1000.0;
            abandoned += run.abandoned();
        }
        return new RunRecording(results, gaps, inFlight, offsetMillis / 1000, abandoned);
    }
}
