package io.pdgateway.bench.validate;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.routingsim.workload.SimRequest;
import io.pdgateway.routingsim.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** validate spaces a trace's simultaneous arrivals so both sides queue them in the same order. */
class ArrivalSpacingTest {
    private static final long MS = 1_000_000;

    @Test
    void simultaneousArrivals_leaveInTraceOrder_aGapApart_andLaterOnesKeepTheirTime() {
        Workload spaced = ArrivalSpacing.apply(workload(0, 0, 0, 3_000 * MS, 3_000 * MS), 10 * MS);
        assertThat(spaced.requests()).extracting(SimRequest::arrivalNanos)
                .containsExactly(0L, 10 * MS, 20 * MS, 3_000 * MS, 3_010 * MS);
        assertThat(spaced.requests()).extracting(SimRequest::index).containsExactly(0, 1, 2, 3, 4);
        assertThat(spaced.requests()).extracting(SimRequest::promptTokens).containsExactly(100, 101, 102, 103, 104);
        assertThat(spaced.source()).endsWith("min-gap=10ms (3 moved)");
    }

    @Test
    void aBurstLongerThanTheTick_pushesTheNextTickBack_neverReordering() {
        Workload spaced = ArrivalSpacing.apply(workload(0, 0, 0, 15 * MS), 10 * MS);
        assertThat(spaced.requests()).extracting(SimRequest::arrivalNanos)
                .containsExactly(0L, 10 * MS, 20 * MS, 30 * MS);
    }

    @Test
    void noGap_replaysTiesAsRecorded() {
        Workload recorded = workload(0, 0, 5 * MS);
        assertThat(ArrivalSpacing.apply(recorded, 0)).isSameAs(recorded);
    }

    private static Workload workload(long... arrivals) {
        List<SimRequest> requests = new ArrayList<>();
        for (int i = 0; i < arrivals.length; i++) {
            requests.add(new SimRequest(i, arrivals[i], 100 + i, 8, new long[0], null));
        }
        return new Workload("test", "trace", requests);
    }
}
