package io.pdgateway.routingsim.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The virtual clock: events fire in time order, events of one instant in the order they were scheduled, the clock
 * jumps to each event's time, and nothing can be scheduled in the past.
 */
class EventQueueTest {
    private final EventQueue queue = new EventQueue();
    private final List<String> fired = new ArrayList<>();

    @Test
    void events_fireInTimeOrder_clockJumps() {
        queue.schedule(30, now -> fired.add("c@" + now));
        queue.schedule(10, now -> fired.add("a@" + now));
        queue.schedule(20, now -> fired.add("b@" + now));
        queue.run();
        assertThat(fired).containsExactly("a@10", "b@20", "c@30");
        assertThat(queue.now()).isEqualTo(30);
        assertThat(queue.fired()).isEqualTo(3);
    }

    @Test
    void sameInstant_firesInSchedulingOrder() {
        for (int i = 0; i < 50; i++) {
            int n = i;
            queue.schedule(5, now -> fired.add(Integer.toString(n)));
        }
        queue.run();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            expected.add(Integer.toString(i));
        }
        assertThat(fired).isEqualTo(expected);
    }

    @Test
    void eventScheduledByAnEvent_atTheSameInstant_firesAfterIt() {
        queue.schedule(7, now -> {
            fired.add("first");
            queue.schedule(now, later -> fired.add("chained"));
        });
        queue.schedule(7, now -> fired.add("second"));
        queue.run();
        assertThat(fired).containsExactly("first", "second", "chained");
    }

    @Test
    void schedulingInThePast_isRefused() {
        queue.schedule(100, now -> queue.schedule(99, later -> { }));
        assertThatThrownBy(queue::run).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("before now");
    }

    @Test
    void manyRandomEvents_fireSorted_beyondTheInitialCapacity() {
        SplittableRandom random = new SplittableRandom(1);
        List<long[]> seen = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            long at = random.nextLong(1_000);
            long order = i;
            queue.schedule(at, now -> seen.add(new long[] {now, order}));
        }
        queue.run();
        assertThat(seen).hasSize(10_000);
        for (int i = 1; i < seen.size(); i++) {
            long[] a = seen.get(i - 1);
            long[] b = seen.get(i);
            assertThat(a[0] < b[0] || a[0] == b[0] && a[1] < b[1]).as("event %d in order", i).isTrue();
        }
        assertThat(queue.pending()).isZero();
    }
}
