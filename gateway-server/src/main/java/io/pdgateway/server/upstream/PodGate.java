package io.pdgateway.server.upstream;

import io.pdgateway.core.config.PodConnectionLimits;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.core.model.Pod;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Locale;

/**
 * One pod's connection slots and the requests waiting for one, first come first served. A request takes a slot at
 * once while the pod has fewer than {@code maxConnections} in use, waits while fewer than {@code maxWaiting} wait, and
 * is refused otherwise; a waiting request is refused when its wait timer fires first. Exchanges of every event loop
 * share a pod's gate, so its state is guarded by the gate's lock, held for a few field updates only (never across
 * I/O); a waiting request learns the outcome on its own event loop.
 */
final class PodGate {
    /** What a request learns from the gate, on its own event loop. */
    interface Waiting {
        void granted(PodSlot slot);

        void refused(SlotRefusal refusal);
    }

    /** A request in line: its event loop, its callback and its wait timer. */
    static final class Waiter {
        private final Context context;
        private final Waiting callback;
        private long timer = -1;

        private Waiter(Context context, Waiting callback) {
            this.context = context;
            this.callback = callback;
        }
    }

    private final Vertx vertx;
    private final Pod pod;
    private final PodConnectionLimits limits;
    /** Insertion-ordered: the head is the longest waiting; a request that leaves is removed in O(1). */
    private final LinkedHashSet<Waiter> line = new LinkedHashSet<>();
    private int inUse;
    private long refusedFull;
    private long refusedTimeout;

    PodGate(Vertx vertx, Pod pod, PodConnectionLimits limits) {
        this.vertx = vertx;
        this.pod = pod;
        this.limits = limits;
    }

    /**
     * Takes a slot for the caller (on an event loop): at once when one is free or the line is full (the callback runs
     * before this returns, and the result is null), else later, on the caller's event loop, when a slot comes free or
     * after {@code waitMillis}. The returned waiter leaves the line with {@link #leave}.
     */
    Waiter acquire(long waitMillis, Waiting callback) {
        boolean granted = false;
        Waiter waiter = null;
        synchronized (this) {
            if (inUse < limits.maxConnections()) {
                inUse++;
                granted = true;
            } else if (line.size() < limits.maxWaiting()) {
                waiter = new Waiter(Vertx.currentContext(), callback);
                line.add(waiter);
            } else {
                refusedFull++;
            }
        }
        if (granted) {
            callback.granted(new PodSlot(this));
            return null;
        }
        if (waiter == null) {
            callback.refused(refusal(SlotRefusal.Reason.QUEUE_FULL));
            return null;
        }
        // Set before any grant can run: a grant is queued on this same event loop, behind this task.
        Waiter armed = waiter;
        waiter.timer = vertx.setTimer(waitMillis, id -> timedOut(armed));
        return waiter;
    }

    /** The waiter gave up (its request ended): it leaves the line. A grant already on its way is the caller's. */
    void leave(Waiter waiter) {
        boolean left;
        synchronized (this) {
            left = line.remove(waiter);
        }
        if (left) {
            vertx.cancelTimer(waiter.timer);
        }
    }

    /** A slot comes back: the longest-waiting request gets it, or it is free. */
    void release() {
        Waiter next = null;
        synchronized (this) {
            Iterator<Waiter> first = line.iterator();
            if (first.hasNext()) {
                next = first.next();
                first.remove();
            } else {
                inUse--;
            }
        }
        if (next != null) {
            Waiter granted = next;
            granted.context.runOnContext(v -> {
                vertx.cancelTimer(granted.timer);
                granted.callback.granted(new PodSlot(this));
            });
        }
    }

    private void timedOut(Waiter waiter) {
        boolean expired;
        synchronized (this) {
            expired = line.remove(waiter);
            if (expired) {
                refusedTimeout++;
            }
        }
        if (expired) {
            waiter.callback.refused(refusal(SlotRefusal.Reason.WAIT_TIMEOUT));
        }
    }

    private SlotRefusal refusal(SlotRefusal.Reason reason) {
        String message = reason == SlotRefusal.Reason.QUEUE_FULL
                ? String.format(Locale.ROOT, "pod %s has all %d of its connections in use (%s) and %d requests "
                        + "waiting for one (%s); retry later", pod.name(), limits.maxConnections(),
                        SpecEnv.UPSTREAM_MAX_CONNECTIONS_PER_POD, limits.maxWaiting(), SpecEnv.UPSTREAM_MAX_WAITING_PER_POD)
                : String.format(Locale.ROOT, "no connection to pod %s came free within %.1f s (%s); all %d are in "
                        + "use (%s); retry later", pod.name(), limits.waitTimeoutMillis() / 1000.0,
                        SpecEnv.UPSTREAM_WAIT_TIMEOUT, limits.maxConnections(), SpecEnv.UPSTREAM_MAX_CONNECTIONS_PER_POD);
        return new SlotRefusal(reason, pod, message, limits.retryAfterSeconds());
    }

    synchronized int inUse() {
        return inUse;
    }

    synchronized int waiting() {
        return line.size();
    }

    synchronized long refused(SlotRefusal.Reason reason) {
        return reason == SlotRefusal.Reason.QUEUE_FULL ? refusedFull : refusedTimeout;
    }

    /** Nothing in use and nobody waiting: the gate of a departed pod can go. */
    synchronized boolean idle() {
        return inUse == 0 && line.isEmpty();
    }
}
