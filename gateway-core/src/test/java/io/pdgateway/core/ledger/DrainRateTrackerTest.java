package io.pdgateway.core.ledger;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.Strategy;
import io.pdgateway.core.routing.Verdict;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Completions per second over about a minute, only with at least ten seconds of history; forgotten with the pod. */
class DrainRateTrackerTest {
    private static final long SECOND = 1_000_000_000L;
    private final RequestLedger ledger = new RequestLedger();
    private final Pod pod = pod("d").build();

    private void complete(int requests) {
        for (int i = 0; i < requests; i++) {
            ledger.charge(RouteDecision.single(pod, Verdict.SINGLE_POD_SELECTED, Strategy.RANDOM, "s", "t"))
                    .releaseAll();
        }
    }

    @Test
    void rate_overTheWindow_afterTenSeconds() {
        ledger.drain().tick(0);
        complete(30);
        assertThat(ledger.drain().rate(pod.id(), 5 * SECOND)).as("only 5 s of history").isZero();
        assertThat(ledger.drain().rate(pod.id(), 15 * SECOND)).isCloseTo(2.0, within(1e-9));
        assertThat(ledger.drain().rate("ns/other", 15 * SECOND)).isZero();
    }

    @Test
    void oldSnapshotsLeaveTheWindow() {
        for (long t = 0; t <= 120; t += 5) {
            ledger.drain().tick(t * SECOND);
            if (t < 60) {
                complete(50);
            }
        }
        // Completions stopped at 60 s: the window (60..120 s) saw none of them... except the burst at t=55
        // counted after the 55 s snapshot, i.e. in (55, 60]: the window starts at the first snapshot ≤ 60 s old.
        assertThat(ledger.drain().rate(pod.id(), 125 * SECOND)).isZero();
    }

    @Test
    void podDropped_historyGone_recreatedPodStartsFromZero() {
        ledger.drain().tick(0);
        complete(30);
        ledger.drain().tick(5 * SECOND);
        ledger.retainOnly(Map.of());
        assertThat(ledger.podIds()).isEmpty();
        complete(10); // the pod is back (same name and address): 10 completions since it returned
        assertThat(ledger.drain().rate(pod.id(), 15 * SECOND)).isCloseTo(10 / 15.0, within(1e-9));
    }
}
