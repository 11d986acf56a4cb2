package io.pdgateway.bench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EveryOperationTest {
    @Test
    void warmUpIsNotKept_andTheTrialPoolsTheMeasuredIterations() {
        EveryOperation timed = new EveryOperation("decision");
        timed.measuring(false);
        for (int i = 0; i < 1000; i++) {
            timed.record(1_000_000); // a slow warm-up: 1 ms each
        }
        assertThat(timed.iteration()).isNull();

        timed.measuring(true);
        for (int i = 1; i <= 100; i++) {
            timed.record(i * 1_000L); // 1 to 100 µs
        }
        assertThat(timed.iteration()).isEqualTo(
                "every decision of the iteration, 100 timed: p50 51.0, p90 91.0, p99 100.0, p99.9 100.0 µs");
        timed.measuring(true);
        for (int i = 0; i < 100; i++) {
            timed.record(200_000);
        }
        assertThat(timed.iteration()).contains("100 timed: p50 200.0");
        assertThat(timed.trial()).isEqualTo(
                "every decision of the trial, 200 timed: p50 200.0, p90 200.0, p99 200.0, p99.9 200.0 µs");
    }
}
