package io.pdgateway.server.exchange;

import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.session.Routed;
import io.pdgateway.engine.LegPlan;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.server.metrics.GatewayMetrics;
import io.pdgateway.server.trace.LegTrace;
import io.pdgateway.server.upstream.Reservation;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One try at serving a request on one decision: its lease on the ledgers, its legs, their plan and the decode
 * watchdog. A retry is a new attempt; the exchange gives up the old one (aborting its legs and releasing its lease)
 * before the next is routed, and handlers of a given-up attempt's legs are ignored. On the exchange's event loop only.
 */
final class Attempt {
    final Routed routed;
    final LegAborter aborter;
    private final GatewayMetrics metrics;
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
    private static final Supplier<String> EXPLAINED_WHEN_ROUTED = () -> "explained when it was routed";

    Attempt(Routed routed, Upstreams up, String requestId) {
        this.routed = unexplained(routed);
        this.aborter = new LegAborter(up, routed.admission().knobs(), requestId);
        this.metrics = up.metrics();
    }

    /**
     * The decision without its explanation. Its reason and score table are read when it is made (the x-pd-decision
     * header, the route span, a refusal's body) and never by an attempt, but their suppliers hold the routing's score
     * arrays: about half a kilobyte of every held stream (issue 16).
     */
    private static Routed unexplained(Routed routed) {
        RouteDecision d = routed.decision();
        RouteDecision kept = new RouteDecision(d.kind(), d.prefill(), d.target(), d.verdict(), d.strategy(), d.step(),
                EXPLAINED_WHEN_ROUTED, Map::of);
        return new Routed(kept, routed.lease(), routed.admission(), routed.features(), routed.requestId(),
                routed.routingNanos());
    }

    /**
     * Once its decode is sent and its prefill is over (answered, or failed with the answer already streaming), neither a
     * leg nor a retry can be built any more: the client's body goes, with the plan's leg bodies and the finished
     * prefill call, and a held stream keeps only what ending it needs (the abort calls and the decode leg). A given-up
     * attempt releases nothing: the next one is built from the body.
     */
    void legsOut(ClientBody body) {
        if (over || decodeLeg == null || (prefillCall != null && prefillCall.running())) {
            return;
        }
        body.release();
        legRequest = null;
        if (plan != null) {
            plan = new LegPlan(plan.schedule(), null, null, plan.prefillAbort(), plan.decodeAbort());
        }
        prefillCall = null; // settled, and its leg finished or already aborted: nothing left to stop
    }

    /** Given up (retried elsewhere) or the request ended: its handlers do nothing from now on. */
    boolean over() {
        return over;
    }

    /**
     * The prefill leg failed: if the pod answered with an error, and before the decode streamed anything (which would
     * mean it had computed), it stored none of the prompt. Engines check a request before they compute it.
     */
    void prefillRefused(LegFailure failure, boolean answerStarted) {
        if (failure.answeredError() && !answerStarted) {
            routed.lease().computeRefused();
        }
    }

    /** The streamed leg's answer began: a success from the single pod means it took the prompt. */
    void answering(int status) {
        if (status >= 200 && status < 300 && !routed.decision().isPd()) {
            routed.lease().computeAccepted();
        }
    }

    /** The streamed leg's pod answered with an error: when it is the single pod, it computed none of the prompt. */
    void answeredError() {
        if (!routed.decision().isPd()) {
            routed.lease().computeRefused();
        }
    }

    /**
     * Ends the attempt: stops its watchdog, aborts every leg still running when it failed (a prefill it stops waiting
     * for counts as context_canceled), gives back the connection slots no leg took, and releases its lease.
     * Idempotent.
     *
     * @param failed the request failed, was cancelled, or is being retried: no running leg has anyone to answer
     */
    void end(boolean failed) {
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
                metrics.prefillFailed("context_canceled", 499);
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
