package io.pdgateway.workload.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.pdgateway.workload.Slo;
import io.pdgateway.workload.run.RunRecording;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The headline numbers: counts, percentiles of successful requests only, goodput over all requests, errors by kind. */
class RunSummaryTest {
    @Test
    void summary_countsPercentilesAndGoodput() {
        RunSummary s = RunSummary.of(Reports.recording(), new Slo(50, 10));

        assertThat(s.requests()).isEqualTo(100);
        assertThat(s.succeeded()).isEqualTo(99);
        assertThat(s.errors()).isEqualTo(1);
        assertThat(s.errorKinds()).containsEntry("http 503", 1);
        assertThat(s.fallbacks()).isEqualTo(99);
        assertThat(s.ttft().p50()).isCloseTo(59, within(0.5)); // 10..108: the 50th of 99 is 59
        assertThat(s.ttft().max()).isCloseTo(108, within(0.5));
        // TTFT <= 50 ms: 10..50, 41 of the 100 requests sent.
        assertThat(s.goodput()).isCloseTo(0.41, within(1e-9));
        assertThat(s.requestsPerSecond()).isCloseTo(99 / 2.5, within(1e-9));
    }

    @Test
    void timeSeries_bucketsBySecond() {
        TimeSeries series = TimeSeries.of(Reports.recording());

        // Starts every 20 ms: 50 requests a second; the error was sent at 1.99 s.
        assertThat(series.points().get(0).sent()).isEqualTo(50);
        assertThat(series.points().get(1).errors()).isEqualTo(1);
        assertThat(series.points().get(0).inFlight()).isEqualTo(3);
    }

    @Test
    void abandonedRequests_countAsErrors() {
        var base = Reports.recording();
        var run = new RunRecording(base.results(), base.chunkGaps(), List.of(), 3, 2);

        RunSummary s = RunSummary.of(run, new Slo(50, 10));
        assertThat(s.requests()).isEqualTo(102);
        assertThat(s.errors()).isEqualTo(3);
        assertThat(s.errorKinds()).containsKey("abandoned at the run's deadline");
    }
}
