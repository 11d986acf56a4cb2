package io.pdgateway.core.ledger;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.RouteDecision;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateway-side request counters routing reads, keyed by namespace/name: in-flight prefill calls per prefill pod,
 * running requests per decode or single target pod, and of those the ones still waiting for their prefill
 * (upstream's PrefillRequestTracker, realtime_num_requests_running and PendingDecodeTracker). Charged right after
 * the decision under the selection lock; every release is idempotent and no counter goes below zero. Completions
 * feed the drain-rate tracker.
 */
public final class RequestLedger {
    private final Map<String, AtomicInteger> prefills = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> pending = new ConcurrentHashMap<>();
    private final DrainRateTracker drain;

    public RequestLedger(DrainRateTracker drain) {
        this.drain = drain;
    }

    public RequestLedger() {
        this(new DrainRateTracker());
    }

    public DrainRateTracker drain() {
        return drain;
    }

    public int inFlightPrefills(Pod pod) {
        return read(prefills, pod.id());
    }

    public int runningRequests(Pod pod) {
        return read(running, pod.id());
    }

    public int pendingDecodes(Pod pod) {
        return read(pending, pod.id());
    }

    /** True once a request was ever routed to the pod as a target (the counter exists, even at zero). */
    public boolean hasRunningCounter(Pod pod) {
        return running.containsKey(pod.id());
    }

    /** This replica's running count per pod id, for publishing to the other replicas. */
    public Map<String, Integer> runningByPod() {
        Map<String, Integer> out = new java.util.HashMap<>();
        running.forEach((id, count) -> {
            if (count.get() > 0) {
                out.put(id, count.get());
            }
        });
        return out;
    }

    /** Sum of every counter: zero when nothing is in flight (the invariant tests check after every run). */
    public int outstanding() {
        int total = 0;
        for (Map<String, AtomicInteger> counters : java.util.List.of(prefills, running, pending)) {
            for (AtomicInteger v : counters.values()) {
                total += v.get();
            }
        }
        return total;
    }

    public Charge charge(RouteDecision decision) {
        if (decision.prefill() != null) {
            increment(prefills, decision.prefill().id());
            increment(pending, decision.target().id());
        }
        if (decision.target() != null) {
            increment(running, decision.target().id());
        }
        return new Charge(decision);
    }

    private static void increment(Map<String, AtomicInteger> counters, String id) {
        counters.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
    }

    private static int read(Map<String, AtomicInteger> counters, String id) {
        AtomicInteger v = counters.get(id);
        return v == null ? 0 : v.get();
    }

    private static void decrement(Map<String, AtomicInteger> counters, String id) {
        AtomicInteger v = counters.get(id);
        if (v != null) {
            v.getAndUpdate(n -> n > 0 ? n - 1 : 0);
        }
    }

    /** One request's charges. Release each part at most once, from whichever path ends it. */
    public final class Charge {
        private final RouteDecision decision;
        private final AtomicBoolean prefillReleased = new AtomicBoolean();
        private final AtomicBoolean targetReleased = new AtomicBoolean();

        private Charge(RouteDecision decision) {
            this.decision = decision;
            if (decision.prefill() == null) {
                prefillReleased.set(true);
            }
            if (decision.target() == null) {
                targetReleased.set(true);
            }
        }

        /** The prefill call returned (or failed). */
        public void releasePrefill() {
            if (prefillReleased.compareAndSet(false, true)) {
                decrement(prefills, decision.prefill().id());
                decrement(pending, decision.target().id());
                drain.completed(decision.prefill().id());
            }
        }

        /** The request ended, however it ended: releases whatever is still held. */
        public void releaseAll() {
            releasePrefill();
            if (targetReleased.compareAndSet(false, true)) {
                decrement(running, decision.target().id());
                drain.completed(decision.target().id());
            }
        }
    }
}
