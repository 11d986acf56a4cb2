package io.pdgateway.routingsim.run;

import io.pdgateway.core.session.Lease;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.DecisionKind;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.Verdict;
import io.pdgateway.routingsim.cluster.SimCluster;
import io.pdgateway.routingsim.engine.EngineListener;
import io.pdgateway.routingsim.engine.EngineRequest;
import io.pdgateway.routingsim.engine.SimEngine;
import io.pdgateway.routingsim.event.EventQueue;
import io.pdgateway.core.session.Routed;
import io.pdgateway.routingsim.workload.SimRequest;
import java.util.function.Consumer;

/**
 * One request from its routing decision to its end, as the gateway's exchange runs it. On the PD path: a one-token
 * prefill leg on the prefill pod (its return releases the prefill charge), the decode leg on the decode pod, which
 * fetches the KV over the prefill pod's link and then generates; on a standard pod: the whole request there. Every
 * journey ends exactly once, releasing all its charges.
 */
final class RequestJourney implements EngineListener {
    private final SimRequest request;
    private final Lease charges;
    // What the record needs of the decision; the decision itself (with every pod's score) is not kept.
    private final DecisionKind kind;
    private final Verdict verdict;
    private final String step;
    private final Pod prefillPod;
    private final Pod targetPod;
    private final SimCluster cluster;
    private final EventQueue queue;
    private final Consumer<RequestRecord> done;
    private final String reason;
    private EngineRequest prefillLeg;
    private long firstTokenAt = -1;
    private int cachedTokens;
    private boolean ended;

    RequestJourney(SimRequest request, Routed routed, SimCluster cluster, EventQueue queue,
            Consumer<RequestRecord> done) {
        this.request = request;
        RouteDecision decision = routed.decision();
        this.charges = routed.lease();
        this.kind = decision.kind();
        this.verdict = decision.verdict();
        this.step = decision.step();
        this.prefillPod = decision.prefill();
        this.targetPod = decision.target();
        this.reason = decision.verdict().routed() ? null : decision.verdict() + ": " + decision.reason();
        this.cluster = cluster;
        this.queue = queue;
        this.done = done;
    }

    void start() {
        if (reason != null) {
            end(queue.now(), reason);
            return;
        }
        if (prefillPod != null) {
            prefillLeg = new EngineRequest(request.blockHashes(), request.promptTokens(), 1, true, this);
            cluster.engine(prefillPod).submit(prefillLeg);
        } else {
            cluster.engine(targetPod).submit(new EngineRequest(request.blockHashes(), request.promptTokens(),
                    request.outputTokens(), true, this));
            if (!ended && charges != null) {
                charges.computeAccepted(); // the gateway sees the pod's answer begin as it takes the prompt
            }
        }
    }

    @Override
    public void firstToken(SimEngine engine, EngineRequest leg, long now) {
        if (leg == prefillLeg) {
            return; // the prefill leg's token never reaches the client
        }
        firstTokenAt = now;
        if (prefillLeg == null) {
            cachedTokens = leg.cachedTokens();
        }
    }

    @Override
    public void finished(SimEngine engine, EngineRequest leg, long now) {
        if (leg != prefillLeg) {
            end(now, null);
            return;
        }
        cachedTokens = leg.cachedTokens();
        SimEngine prefill = engine;
        SimEngine decode = cluster.engine(targetPod);
        int prompt = request.promptTokens();
        prefill.holdKv(prompt);
        charges.prefillAnswered();
        EngineRequest decodeLeg = new EngineRequest(request.blockHashes(), prompt, request.outputTokens(), false, this);
        decode.kvFetchStarted(decodeLeg);
        queue.schedule(prefill.bookTransfer(prompt), at -> {
            prefill.releaseHeldKv(prompt);
            decode.kvFetchFinished(decodeLeg);
            decode.submit(decodeLeg);
        });
    }

    @Override
    public void rejected(SimEngine engine, EngineRequest leg, String reason, long now) {
        if (charges != null && (leg == prefillLeg || prefillLeg == null)) {
            charges.computeRefused(); // as the gateway takes a computing pod's error answer: it stored nothing
        }
        end(now, engine.pod().name() + " refused: " + reason);
    }

    private void end(long now, String error) {
        if (ended) {
            throw new IllegalStateException("request " + request.index() + " ended twice");
        }
        ended = true;
        if (charges != null) {
            charges.release();
        }
        done.accept(new RequestRecord(request.index(), request.arrivalNanos(), request.promptTokens(),
                request.outputTokens(), kind, verdict, step, prefillPod == null ? null : prefillPod.name(),
                targetPod == null ? null : targetPod.name(), error == null ? firstTokenAt : -1,
                error == null ? now : -1, cachedTokens, error));
    }
}
