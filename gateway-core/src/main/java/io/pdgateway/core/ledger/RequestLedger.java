package io.pdgateway.core.ledger;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.LoadView;
import io.pdgateway.core.routing.RouteDecision;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateway-side request counters routing reads: in-flight prefill calls per prefill pod, and running requests
 * per decode or single target pod (upstream's PrefillRequestTracker and realtime_num_requests_running), keyed by
 * namespace/name. Charged right after the decision, under the same lock; every release is idempotent and no
 * counter goes below zero.
 */
public final class RequestLedger implements LoadView {
    private final Map<String, AtomicInteger> prefills = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();

    @Override
    public int inFlightPrefills(Pod pod) {
        return read(prefills, pod.id());
    }

    @Override
    public int runningRequests(Pod pod) {
        return read(running, pod.id());
    }

    /** Sum of every counter: zero when nothing is in flight (the invariant tests check after every run). */
    public int outstanding() {
        int total = 0;
        for (AtomicInteger v : prefills.values()) {
            total += v.get();
        }
        for (AtomicInteger v : running.values()) {
            total += v.get();
        }
        return total;
    }

    public Charge charge(RouteDecision decision) {
        if (decision.prefill() != null) {
            prefills.computeIfAbsent(decision.prefill().id(), k -> new AtomicInteger()).incrementAndGet();
        }
        if (decision.target() != null) {
            running.computeIfAbsent(decision.target().id(), k -> new AtomicInteger()).incrementAndGet();
        }
        return new Charge(decision);
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
            }
        }

        /** The request ended, however it ended: releases whatever is still held. */
        public void releaseAll() {
            releasePrefill();
            if (targetReleased.compareAndSet(false, true)) {
                decrement(running, decision.target().id());
            }
        }
    }
}
