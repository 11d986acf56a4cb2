package io.pdgateway.core.ledger;

import io.pdgateway.core.model.RowEntry;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.LongAdder;

/**
 * One pod's request counters. A charge holds the counters it incremented, so its release lands on them even after the
 * pod left discovery and was dropped (a pod re-created under the same name starts from fresh counters instead of
 * inheriting the old ones). The counters are fields of this one object, updated atomically through field updaters,
 * so a decision reading every pod's counts reads one object per pod, not one per counter; a model's rows read copies
 * ({@link RowEntry}).
 */
final class PodCounters extends RowEntry {
    static final AtomicIntegerFieldUpdater<PodCounters> PREFILLS =
            AtomicIntegerFieldUpdater.newUpdater(PodCounters.class, "prefills");
    static final AtomicIntegerFieldUpdater<PodCounters> RUNNING =
            AtomicIntegerFieldUpdater.newUpdater(PodCounters.class, "running");
    static final AtomicIntegerFieldUpdater<PodCounters> PENDING =
            AtomicIntegerFieldUpdater.newUpdater(PodCounters.class, "pending");

    volatile int prefills;
    volatile int running;
    volatile int pending;
    /** Requests this pod finished (as prefill or target), for the drain rate. */
    final LongAdder completions = new LongAdder();
    /** ip:port when the counters were created: another address under the same name is another pod. */
    final String address;

    PodCounters(String address) {
        this.address = address;
    }

    int outstanding() {
        return prefills + running + pending;
    }

    /** One less, never below 0. */
    static void decrement(AtomicIntegerFieldUpdater<PodCounters> counter, PodCounters counters) {
        int n;
        do {
            n = counter.get(counters);
        } while (!counter.compareAndSet(counters, n, n > 0 ? n - 1 : 0));
    }
}
