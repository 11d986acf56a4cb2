package io.pdgateway.server.upstream;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.RouteDecision;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The connections one attempt at a request needs, reserved before any leg is sent: the decode (or single) pod's first,
 * then a PD request's prefill pod's, within one PD_GATEWAY_UPSTREAM_WAIT_TIMEOUT for both. Decode first: no prefill is
 * computed for a decode that cannot start, and since a request waiting for a prefill slot already holds its decode
 * slot while one holding a prefill slot waits for nothing, two requests never wait for each other. Each leg takes its
 * slot ({@link #take}) and gives it back when its HTTP exchange is over; {@link #close} gives back the rest. On the
 * attempt's event loop only.
 */
public final class Reservation {
    private final PodGates gates;
    private final RouteDecision decision;
    private PodSlot target;
    private PodSlot prefill;
    private PodGate waitingAt;
    private PodGate.Waiter waiter;
    private long deadlineNanos;
    private Consumer<SlotRefusal> done;
    private boolean closed;

    Reservation(PodGates gates, RouteDecision decision) {
        this.gates = gates;
        this.decision = decision;
    }

    /**
     * Reserves the slots; {@code done} gets null once every one is held, or why one was refused (then none is held).
     * It may run before this returns.
     */
    public void start(Consumer<SlotRefusal> done) {
        this.done = done;
        this.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(gates.limits().waitTimeoutMillis());
        next();
    }

    private void next() {
        Pod pod = target == null ? decision.target() : decision.isPd() && prefill == null ? decision.prefill() : null;
        if (pod == null) {
            done.accept(null);
            return;
        }
        long leftMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
        PodGate gate = gates.gate(pod);
        PodGate.Waiter inLine = gate.acquire(leftMillis, new PodGate.Waiting() {
            @Override
            public void granted(PodSlot slot) {
                waiter = null;
                if (closed) {
                    slot.release(); // the request ended while the grant was on its way
                    return;
                }
                if (target == null) {
                    target = slot;
                } else {
                    prefill = slot;
                }
                next();
            }

            @Override
            public void refused(SlotRefusal refusal) {
                waiter = null;
                if (!closed) {
                    close();
                    done.accept(refusal);
                }
            }
        });
        if (inLine != null) { // waiting; an answer given at once may already have moved on to the next pod
            waitingAt = gate;
            waiter = inLine;
        }
    }

    /** Hands the pod's slot to its leg, which releases it; {@link PodSlot#NONE} when none is held for the pod. */
    public PodSlot take(Pod pod) {
        PodSlot slot = PodSlot.NONE;
        if (target != null && pod.id().equals(decision.target().id())) {
            slot = target;
            target = PodSlot.NONE;
        } else if (prefill != null && decision.isPd() && pod.id().equals(decision.prefill().id())) {
            slot = prefill;
            prefill = PodSlot.NONE;
        }
        return slot;
    }

    /** Leaves a line still waited in and gives back every slot no leg took. Idempotent. */
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (waiter != null) {
            waitingAt.leave(waiter);
            waiter = null;
        }
        if (target != null) {
            target.release();
        }
        if (prefill != null) {
            prefill.release();
        }
    }
}
