package io.pdgateway.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.workload.prompt.PromptPlan;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rate scaling and the caps that bound a run. */
class WorkloadShapingTest {
    private static List<LoadRequest> trace() {
        List<LoadRequest> requests = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            requests.add(new LoadRequest(i * 1_000L, PromptPlan.single(1_000 + i, i), 300, null));
        }
        return requests;
    }

    @Test
    void speedup_dividesArrivalTimes() {
        List<LoadRequest> shaped = new WorkloadShaping(4, 0, 0, 0, 0, 0, 1).apply(trace());

        assertThat(shaped).hasSize(100);
        assertThat(shaped.get(8).arrivalMillis()).isEqualTo(2_000);
    }

    @Test
    void durationAndCount_capTheRun() {
        assertThat(new WorkloadShaping(2, 0, 10, 0, 0, 0, 1).apply(trace())).hasSize(21); // 0..10 s at 2x
        assertThat(new WorkloadShaping(1, 0, 0, 7, 0, 0, 1).apply(trace())).hasSize(7);
    }

    @Test
    void rate_replacesRecordedTimesWithPoissonArrivals() {
        List<LoadRequest> shaped = new WorkloadShaping(1, 50, 0, 0, 0, 0, 1).apply(trace());

        // 100 requests at 50/s take about 2 s (sd of the sum of 100 exponentials: 0.2 s).
        assertThat(shaped.get(99).arrivalMillis()).isBetween(1_200L, 2_800L);
        assertThat(shaped.get(10).prompt()).isEqualTo(trace().get(10).prompt());
    }

    @Test
    void lengthCaps_cutPromptsAndOutputs() {
        LoadRequest shaped = new WorkloadShaping(1, 0, 0, 0, 500, 64, 1).apply(trace()).get(3);

        assertThat(shaped.prompt().tokens()).isEqualTo(500);
        assertThat(shaped.outputTokens()).isEqualTo(64);
    }
}
