package io.pdgateway.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** A proxy's scheduling from /proc's schedstat: over rounds, per request and per time on a core. */
class WakeupsTest {

    @Test
    void aSchedstatLine_isRunThenWaitThenTimesScheduled() {
        Wakeups read = Wakeups.parse("123456789 2345678 910\n");

        assertThat(read).isEqualTo(new Wakeups(123_456_789, 2_345_678, 910, 0));
    }

    @Test
    void roundsArePooled_thenReadPerRequestAndPerTimeOnACore() {
        Wakeups start = new Wakeups(1_000_000, 500_000, 100, 0);
        Wakeups afterFirst = new Wakeups(41_000_000, 10_500_000, 300, 0);
        Wakeups beforeSecond = new Wakeups(50_000_000, 12_000_000, 350, 0);
        Wakeups afterSecond = new Wakeups(110_000_000, 42_000_000, 550, 0);

        Wakeups pooled = afterFirst.since(start, 50).plus(afterSecond.since(beforeSecond, 50));

        // 400 times on a core for 100 requests; 40 + 60 ms run and 10 + 30 ms waited over those 400
        assertThat(pooled.perRequest()).isCloseTo(4.0, within(1e-9));
        assertThat(pooled.runMicrosEach()).isCloseTo(250.0, within(1e-9));
        assertThat(pooled.waitMicrosEach()).isCloseTo(100.0, within(1e-9));
    }

    @Test
    void anUnknownReading_aCountGoneBack_orNoRequests_giveNoFigure() {
        Wakeups known = new Wakeups(1_000, 1_000, 10, 0);
        Wakeups later = new Wakeups(2_000, 3_000, 20, 0);

        assertThat(later.since(Wakeups.UNKNOWN, 5).perRequest()).isNaN();
        assertThat(later.since(known, 5).plus(Wakeups.UNKNOWN).runMicrosEach()).isNaN();
        // a thread ended between the readings and took its counts with it
        assertThat(known.since(later, 5).waitMicrosEach()).isNaN();
        assertThat(new Wakeups(3_000, 500, 30, 0).since(known, 5).runMicrosEach()).isNaN();
        assertThat(later.since(known, 0).perRequest()).isNaN();
        assertThat(later.since(known, 0).runMicrosEach()).isCloseTo(0.1, within(1e-9));
    }

    @Test
    void thisProcess_isReadFromProc_withoutItsCompilerThreads() {
        Wakeups self = Wakeups.of(ProcessHandle.current());

        assertThat(self.known()).isTrue();
        assertThat(self.slices()).isPositive();
        assertThat(self.runNanos()).isPositive();
    }
}
