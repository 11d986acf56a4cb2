package io.pdgateway.core.ledger;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * One pod's request counters. A charge holds the counters it incremented, so its release lands on them even after the
 * pod left discovery and was dropped (a pod re-created under the same name starts from fresh counters instead of
 * inheriting the old ones).
 */
final class PodCounters {
    final AtomicInteger prefills = new AtomicInteger();
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger pending = new AtomicInteger();
    /** Requests this pod finished (as prefill or target), for the drain rate. */
    final LongAdder completions = new LongAdder();
    /** ip:port when the counters were created: another address under the same name is another pod. */
    final String address;

    PodCounters(String address) {
        this.address = address;
    }

    int outstanding() {
        return prefills.get() + running.get() + pending.get();
    }

    static void decrement(AtomicInteger counter) {
        counter.getAndUpdate(n -> n > 0 ? n - 1 : 0);
    }
}
