package io.pdgateway.core.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Completions per second over about a minute, only with at least ten seconds of history. */
class DrainRateTrackerTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void rate_overTheWindow_afterTenSeconds() {
        DrainRateTracker tracker = new DrainRateTracker();
        tracker.tick(0);
        for (int i = 0; i < 30; i++) {
            tracker.completed("ns/d");
        }
        assertThat(tracker.rate("ns/d", 5 * SECOND)).as("only 5 s of history").isZero();
        assertThat(tracker.rate("ns/d", 15 * SECOND)).isCloseTo(2.0, within(1e-9));
        assertThat(tracker.rate("ns/other", 15 * SECOND)).isZero();
    }

    @Test
    void oldSnapshotsLeaveTheWindow() {
        DrainRateTracker tracker = new DrainRateTracker();
        for (long t = 0; t <= 120; t += 5) {
            tracker.tick(t * SECOND);
            if (t < 60) {
                for (int i = 0; i < 50; i++) {
                    tracker.completed("ns/d");
                }
            }
        }
        // Completions stopped at 60 s: the window (60..120 s) saw none of them... except the burst at t=55
        // counted after the 55 s snapshot, i.e. in (55, 60]: the window starts at the first snapshot ≤ 60 s old.
        assertThat(tracker.rate("ns/d", 125 * SECOND)).isZero();
    }
}
