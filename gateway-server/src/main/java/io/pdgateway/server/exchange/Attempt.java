package io.pdgateway.server.exchange;

import io.pdgateway.core.session.Routed;
import io.pdgateway.engine.LegPlan;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.server.trace.LegTrace;
import io.pdgateway.server.upstream.Reservation;

/**
 * One try at serving a request on one decision: its lease on the ledgers, its legs, their plan and the decode
 * watchdog. A retry is a new attempt; the exchange gives up the old one (aborting its legs and releasing its lease)
 * before the next is routed, and handlers of a given-up attempt's legs are ignored. On the exchange's event loop only.
 */
final class Attempt {
    final Routed routed;
    final LegAborter aborter;
    LegRequest legRequest;
    LegPlan plan;
    PrefillCall prefillCall;
    UpstreamLeg decodeLeg;
    LegWatchdog watchdog;
    WriteStall stall;
    LegTrace prefillTrace = LegTrace.OFF;
    LegTrace decodeTrace = LegTrace.OFF;
    /** Its pods' connection slots, until its legs take them; null before it asked for them. */
    Reservation slots;
    private boolean over;
    /** The error.type of a leg span whose request ended (or was retried) while the leg still ran. */
    static final String ABANDONED = "abandoned";

    Attempt(Routed routed, LegAborter aborter) {
        this.routed = routed;
        this.aborter = aborter;
    }

    /** Given up (retried elsewhere) or the request ended: its handlers do nothing from now on. */
    boolean over() {
        return over;
    }

    /**
     * Ends the attempt: stops its watchdog, aborts every leg still running when it failed, gives back the connection
     * slots no leg took, and releases its lease.
     * Idempotent.
     *
     * @param failed the request failed, was cancelled, or is being retried: no running leg has anyone to answer
     */
    void end(boolean failed, Runnable prefillCancelled) {
        if (over) {
            return;
        }
        over = true;
        if (watchdog != null) {
            watchdog.stop();
        }
        if (stall != null) {
            stall.stop();
        }
        if (failed) {
            if (prefillCall != null && prefillCall.running()) {
                prefillCall.cancel();
                prefillCancelled.run();
            }
            aborter.abort(prefillCall == null ? null : prefillCall.leg(), plan == null ? null : plan.prefillAbort());
            aborter.abort(decodeLeg, plan == null ? null : plan.decodeAbort());
            prefillTrace.failed(ABANDONED);
            decodeTrace.failed(ABANDONED);
        }
        if (slots != null) {
            slots.close(); // a slot no leg took (the request ended first) goes back to its pod now
        }
        routed.lease().release();
    }
}
