package io.pdgateway.core.ledger;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.RouteDecision;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The gateway-side request counters routing reads, keyed by namespace/name: in-flight prefill calls per prefill pod,
 * running requests per decode or single target pod, and of those the ones still waiting for their prefill
 * (upstream's PrefillRequestTracker, realtime_num_requests_running and PendingDecodeTracker). Charged right after
 * the decision in the same critical section; every release is idempotent and no counter goes below zero. Completions
 * feed the drain-rate tracker. A pod that leaves discovery is dropped with {@link #retainOnly}.
 */
public final class RequestLedger {
    private final Map<String, PodCounters> pods = new ConcurrentHashMap<>();
    private final DrainRateTracker drain = new DrainRateTracker(this);
    /** Changes after every entry removed from or replaced in {@link #pods}: {@link LedgerRows} refills when it does. */
    private final AtomicLong version = new AtomicLong();
    /**
     * Changes after every entry added for a pod that had none: {@link LedgerRows} then fills only its empty rows (pods
     * get their first charge one by one, and refilling thousands of rows for each cost a map lookup per pod).
     */
    private final AtomicLong additions = new AtomicLong();

    public DrainRateTracker drain() {
        return drain;
    }

    long version() {
        return version.get();
    }

    long additions() {
        return additions.get();
    }

    /** The pod's counters as the reads below find them (by id), or null. */
    PodCounters entry(Pod pod) {
        return pods.get(pod.id());
    }

    public int inFlightPrefills(Pod pod) {
        PodCounters c = pods.get(pod.id());
        return c == null ? 0 : c.prefills;
    }

    public int runningRequests(Pod pod) {
        PodCounters c = pods.get(pod.id());
        return c == null ? 0 : c.running;
    }

    public int pendingDecodes(Pod pod) {
        PodCounters c = pods.get(pod.id());
        return c == null ? 0 : c.pending;
    }

    /** True once a request was routed to the pod since it (re)appeared: its counters exist, even at zero. */
    public boolean hasRunningCounter(Pod pod) {
        return pods.containsKey(pod.id());
    }

    /** This replica's running count per pod id, for publishing to the other replicas. */
    public Map<String, Integer> runningByPod() {
        Map<String, Integer> out = new HashMap<>();
        pods.forEach((id, c) -> {
            int running = c.running;
            if (running > 0) {
                out.put(id, running);
            }
        });
        return out;
    }

    /** Sum of every counter: zero when nothing is in flight (the invariant tests check after every run). */
    public int outstanding() {
        int total = 0;
        for (PodCounters c : pods.values()) {
            total += c.outstanding();
        }
        return total;
    }

    /** Pods with counters (for tests and the removal check). */
    public Set<String> podIds() {
        return Set.copyOf(pods.keySet());
    }

    /** Completions per pod id so far, for the drain-rate snapshots. */
    Map<String, Long> completions() {
        Map<String, Long> counts = new HashMap<>();
        pods.forEach((id, c) -> counts.put(id, c.completions.sum()));
        return counts;
    }

    long completions(String podId) {
        PodCounters c = pods.get(podId);
        return c == null ? 0 : c.completions.sum();
    }

    public Charge charge(RouteDecision decision) {
        PodCounters prefill = null;
        PodCounters target = null;
        if (decision.prefill() != null) {
            prefill = counters(decision.prefill());
            PodCounters.PREFILLS.incrementAndGet(prefill);
            prefill.changed();
        }
        if (decision.target() != null) {
            target = counters(decision.target());
            if (prefill != null) {
                PodCounters.PENDING.incrementAndGet(target);
            }
            PodCounters.RUNNING.incrementAndGet(target);
            target.changed();
        }
        return new Charge(prefill, target);
    }

    private PodCounters counters(Pod pod) {
        PodCounters known = pods.get(pod.id());
        if (known != null && known.address.equals(pod.address())) {
            return known; // the usual case: no new entry, the rows stay valid
        }
        PodCounters counters = pods.compute(pod.id(), (id, c) -> c != null && c.address.equals(pod.address()) ? c
                : new PodCounters(pod.address()));
        (known == null ? additions : version).incrementAndGet(); // a first entry, or a re-created pod's replacing one
        return counters;
    }

    /**
     * Drops every pod not in {@code present} (id → address), and a pod whose address changed (re-created under its
     * old name): its counters, and with them its drain history. Charges still held on them release into the void.
     */
    public void retainOnly(Map<String, String> present) {
        java.util.List<String> dropped = new java.util.ArrayList<>();
        pods.forEach((id, c) -> {
            if (!c.address.equals(present.get(id)) && pods.remove(id, c)) {
                dropped.add(id);
            }
        });
        if (!dropped.isEmpty()) {
            version.incrementAndGet();
            drain.forget(dropped);
        }
    }

    /** One request's charges. Release each part at most once, from whichever path ends it. */
    public static final class Charge {
        private final PodCounters prefill;
        private final PodCounters target;
        private final AtomicBoolean prefillReleased = new AtomicBoolean();
        private final AtomicBoolean targetReleased = new AtomicBoolean();

        private Charge(PodCounters prefill, PodCounters target) {
            this.prefill = prefill;
            this.target = target;
            prefillReleased.set(prefill == null);
            targetReleased.set(target == null);
        }

        /** The prefill call returned (or failed). */
        public void releasePrefill() {
            if (prefillReleased.compareAndSet(false, true)) {
                PodCounters.decrement(PodCounters.PREFILLS, prefill);
                prefill.changed();
                PodCounters.decrement(PodCounters.PENDING, target);
                target.changed();
                prefill.completions.increment();
            }
        }

        /** The request ended, however it ended: releases whatever is still held. */
        public void releaseAll() {
            releasePrefill();
            if (targetReleased.compareAndSet(false, true)) {
                PodCounters.decrement(PodCounters.RUNNING, target);
                target.changed();
                target.completions.increment();
            }
        }
    }
}
