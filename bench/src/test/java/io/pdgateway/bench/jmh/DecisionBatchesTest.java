package io.pdgateway.bench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.session.Routed;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DecisionBatchesTest {
    private static final int DECISIONS = 3_000;

    /**
     * The benchmark's decisions do not depend on how fast they run: one model decides as fast as it can, the other
     * pauses a millisecond every hundred decisions (a collection, a slower machine), and both choose the same pods.
     */
    @Test
    void decisionsOnTheModelsOwnClock_areTheSameAtAnyPace() {
        DecisionBatches fast = new DecisionBatches(64, "predicted_ttft/token_load", 8000, true, 500_000);
        DecisionBatches paused = new DecisionBatches(64, "predicted_ttft/token_load", 8000, true, 500_000);

        assertThat(chosen(paused, true)).isEqualTo(chosen(fast, false));
    }

    private static List<String> chosen(DecisionBatches model, boolean pause) {
        List<String> pods = new ArrayList<>(DECISIONS);
        for (int i = 0; i < DECISIONS; i++) {
            if (pause && i % 100 == 0) {
                spin(TimeUnit.MILLISECONDS.toNanos(1));
            }
            Routed routed = model.decide(model.next());
            pods.add(routed.decision().prefill().name() + "/" + routed.decision().target().name());
        }
        return pods;
    }

    /** Busy for a while: the pace of a slower run, not a wait for anything. */
    private static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
