package io.pdgateway.server.upstream;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One of a pod's connection slots, held by a request for one leg: taken from its {@link PodGate} and given back once,
 * whoever releases it first (the leg when its HTTP exchange is over, or the request's reservation when no leg took
 * it). Releasing twice is harmless.
 */
public final class PodSlot {
    /** No slot: for legs outside any limit (the endpoint picker's prefill legs). Releasing it does nothing. */
    public static final PodSlot NONE = new PodSlot(null);

    private final PodGate gate;
    private final AtomicBoolean released = new AtomicBoolean();

    PodSlot(PodGate gate) {
        this.gate = gate;
    }

    /** Gives the slot back to its pod: the next waiting request gets it. Idempotent. */
    public void release() {
        if (gate != null && released.compareAndSet(false, true)) {
            gate.release();
        }
    }
}
