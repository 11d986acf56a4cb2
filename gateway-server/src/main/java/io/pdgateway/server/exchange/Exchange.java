package io.pdgateway.server.exchange;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.session.Routed;
import io.pdgateway.core.session.RoutingSession;
import io.pdgateway.core.spec.SpecHeaders;
import io.pdgateway.engine.EngineAdapter;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.engine.LegSchedule;
import io.pdgateway.server.front.DecisionHeader;
import io.pdgateway.server.front.OpenAiRequest;
import io.pdgateway.server.http.OnEventLoop;
import io.pdgateway.server.metrics.GatewayMetrics;
import io.pdgateway.server.trace.RequestTrace;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one routed request, from its first attempt to its one ending. The client side lives here (the answer, the
 * phase times, the retry budget, the end); each try at serving it is an {@link Attempt} (its lease, legs, plan and
 * watchdog). A PD attempt's legs follow the engine's plan: the prefill first and then the decode (vLLM, TensorRT-LLM
 * context_first), or both at once (SGLang, TensorRT-LLM generation_first, whose plan first needs the context worker's
 * metadata). The decode or single leg streams to the client chunk by chunk, its headers held until its first chunk so
 * that a failure can still be a clean error.
 *
 * <p>Failure rules, keyed on "has anything reached the client yet?": a prefill that fails transiently before that is
 * tried once more on other pods ({@link PrefillRetryPolicy}), as a new attempt; one that cannot be retried fails the
 * request ({@code x-error-pd-prefill}); the decode watchdog answers 504 ({@code x-error-pd-decode}) before the first
 * byte and cuts the stream short after it; a request that ends in any failure, the client's departure included,
 * aborts every leg still running ({@link LegAborter}). A request that succeeded lets a still-running prefill finish on
 * its own: it is about to.
 *
 * <p>Every callback runs on the client connection's event loop, so the state below needs no locks. Every way the
 * request can end goes through {@link #finish}, which sets {@code done} first (aborting a leg fires its handlers at
 * once, and they must find the request settled) and ends the current attempt, which releases its lease exactly once.
 */
public final class Exchange {
    private static final Logger LOG = LoggerFactory.getLogger(Exchange.class);

    private final Upstreams up;
    private final RoutingSession session;
    private final HttpServerResponse out;
    private final String model;
    private final boolean stream;
    private final ClientBody clientBody;
    private final EngineAdapter adapter;
    private final String requestId;
    private final Context context;
    private final ClientAnswer answer;
    private final LegOptions legOptions;
    private final PrefillRetryPolicy retry;
    private final boolean showDecision;
    private final PhaseTimes phases;
    private final RequestTrace trace;
    private Attempt attempt;
    private boolean done;

    /**
     * @param body the client's request and what admission parsed of it, let go once no leg is built from them
     * @param adapter the engine adapter of a PD request (resolved once, at admission), or null for a single pod
     * @param showDecision the client asked for x-pd-decision: a retry's decision replaces the first one's
     * @param forwardAuthorization whether the client's Authorization header goes on to the pods (not when it is the
     *     gateway's own API key)
     * @param trace the request's spans (the legs become its children); {@link RequestTrace#OFF} when tracing is off
     */
    public Exchange(Upstreams up, RoutingSession session, HttpServerRequest client, ClientBody body, Routed routed,
            EngineAdapter adapter, boolean showDecision, boolean forwardAuthorization, RequestTrace trace) {
        OpenAiRequest request = body.request();
        this.up = up;
        this.session = session;
        this.out = client.response();
        this.model = request.model();
        this.stream = request.stream();
        this.phases = PhaseTimes.of(request);
        this.clientBody = body;
        this.adapter = adapter;
        this.requestId = routed.requestId();
        this.context = Vertx.currentContext();
        this.answer = new ClientAnswer(out);
        this.legOptions = new LegOptions(client, request.path(), requestId, forwardAuthorization);
        this.retry = new PrefillRetryPolicy(up.settings().front().prefillRetry());
        this.showDecision = showDecision;
        this.trace = trace;
        this.attempt = new Attempt(routed, up, requestId);
    }

    public void start() {
        out.closeHandler(v -> finish(Ending.CLIENT_CANCEL, 499));
        run(attempt);
    }

    /** Runs the legs of an attempt's decision, once its pods have a connection for it (or refuses it, 503). */
    private void run(Attempt a) {
        a.slots = up.gates().reservation(a.routed.decision());
        a.slots.start(refusal -> {
            if (refusal != null && !done && !a.over()) {
                Ending ending = Ending.refused(refusal.reason());
                finish(ending, 503);
                answer.error(ending.error(503, refusal.message(), null).withRetryAfter(refusal.retryAfterSeconds()));
            } else if (!done && !a.over()) {
                runOnSlots(a);
            }
        });
    }

    private void runOnSlots(Attempt a) {
        RouteDecision decision = a.routed.decision();
        up.metrics().routed(model, decision);
        out.putHeader(SpecHeaders.TARGET_POD, decision.target().name());
        if (!decision.isPd()) {
            out.headers().remove(SpecHeaders.PREFILL_TARGET_POD);
            a.watchdog = new LegWatchdog(up.vertx(), LegWatchdog.standard(up.settings().upstream()), stream,
                    why -> watchdogFired(a, why));
            a.watchdog.start(); // a standard pod owes the answer from the moment it is asked
            sendDecode(a, clientBody.request().raw());
            return;
        }
        out.putHeader(SpecHeaders.PREFILL_TARGET_POD, decision.prefill().name());
        up.metrics().selected(decision.prefill(), decision.target());
        if (adapter == null) {
            fail(Ending.ENGINE_NOT_SUPPORTED, 501, "PD routing for engine " + a.routed.admission().model().engine()
                    + " is not supported by this gateway version", null);
            return;
        }
        a.watchdog = new LegWatchdog(up.vertx(), LegWatchdog.decode(a.routed.admission().knobs(),
                up.settings().upstream()), stream, why -> watchdogFired(a, why));
        OpenAiRequest request = clientBody.request();
        LegRequest legs = new LegRequest(request.path(), request.raw(), clientBody.admitted(),
                decision.prefill(), decision.target(), up.settings().engines().kvConnectorType(), requestId, null);
        if (adapter.prerequisite() == null) {
            runLegs(a, legs);
            return;
        }
        // The lookup may complete on another request's event loop: come back to this one.
        up.prerequisites().get(decision.prefill(), adapter.prerequisite())
                .onComplete(value -> OnEventLoop.on(context, () -> prerequisite(a, legs, value)));
    }

    private void prerequisite(Attempt a, LegRequest legs, AsyncResult<Object> value) {
        if (done || a.over()) {
            return;
        }
        if (value.failed()) {
            fail(Ending.PREREQUISITE_FAILED, 503, "the " + adapter.engine() + " plan needs the metadata of prefill pod "
                    + a.routed.decision().prefill().name() + ": " + value.cause().getMessage(), null);
            return;
        }
        runLegs(a, legs.withPrerequisite(value.result()));
    }

    private void runLegs(Attempt a, LegRequest legs) {
        try {
            a.plan = adapter.plan(legs);
        } catch (EngineProtocolException | RuntimeException e) {
            // A runtime exception here is a bug, but the request must still end, and release what it holds, once.
            LOG.warn("request {}: cannot plan the legs: {}", requestId, e.toString());
            fail(Ending.PLAN_FAILED, 502, "cannot build the prefill/decode legs: " + e.getMessage(), null);
            return;
        }
        a.legRequest = legs;
        sendPrefill(a);
        if (a.plan.schedule() == LegSchedule.CONCURRENT) {
            sendDecode(a, a.plan.decodeBody());
        }
    }

    private void sendPrefill(Attempt a) {
        phases.prefillStarted(a.plan.schedule() == LegSchedule.SEQUENTIAL);
        up.metrics().prefillStarted();
        Pod prefill = a.routed.decision().prefill();
        long timeoutMs = LegAborter.millis(a.routed.admission().knobs().prefillRequestTimeout());
        a.prefillTrace = trace.leg(RequestTrace.Leg.PREFILL, prefill);
        a.prefillCall = PrefillCall.start(up, prefill, a.slots.take(prefill), legOptions.forPod(prefill,
                a.prefillTrace), a.plan.prefillBody(), timeoutMs,
                response -> prefillAnswered(a, response), failure -> prefillFailed(a, failure));
    }

    private void prefillAnswered(Attempt a, byte[] response) {
        a.prefillTrace.answered(200);
        up.outliers().answered(a.routed.decision().prefill());
        byte[] decodeBody = null;
        if (a.plan.schedule() == LegSchedule.SEQUENTIAL && !done) {
            try {
                decodeBody = adapter.decodeBody(a.legRequest, a.plan, response);
            } catch (EngineProtocolException | RuntimeException e) {
                prefillFailed(a, LegFailure.protocol(e.toString()));
                return;
            }
        }
        phases.prefillEnded();
        up.metrics().prefillSucceeded();
        a.routed.lease().prefillAnswered();
        if (done || a.over()) {
            return; // the decode already answered in full
        }
        if (decodeBody != null) {
            sendDecode(a, decodeBody);
        }
        a.watchdog.start(); // the prefill succeeded: from now on the decode pod owes the answer
        a.legsOut(clientBody);
    }

    private void prefillFailed(Attempt a, LegFailure failure) {
        a.prefillTrace.failed(failure.metricStatus() + " " + failure.metricCode());
        up.metrics().prefillFailed(failure.metricStatus(), failure.metricCode());
        LOG.warn("request {}: prefill on {} failed: {}", requestId, a.routed.decision().prefill().id(),
                failure.message());
        if (failure.connectionFailed()) {
            up.outliers().failed(a.routed.decision().prefill(), failure.message());
        }
        a.aborter.abort(a.prefillCall.leg(), a.plan.prefillAbort()); // a timed-out prefill still runs at the pod
        a.prefillRefused(failure, answer.started());
        if (done || a.over()) {
            return;
        }
        if (answer.started()) {
            // The decode already streams to the client: it got its KV, so its answer stands.
            a.legsOut(clientBody);
            return;
        }
        if (retry.allows(failure, answer.started()) && retriedElsewhere(a, failure)) {
            return;
        }
        if (failure.upstreamBody() != null) {
            finish(Ending.PREFILL_FAILED, failure.clientStatus());
            answer.passThrough(failure.clientStatus(), failure.upstreamBody(), SpecHeaders.ERROR_PD_PREFILL);
            return;
        }
        fail(Ending.PREFILL_FAILED, failure.clientStatus(), failure.message(), SpecHeaders.ERROR_PD_PREFILL);
    }

    /**
     * Routes the request again without the prefill pod that failed, as a new attempt. The failed attempt's legs are
     * aborted and its lease released first (by the session's reroute), so the ledgers never hold both attempts at
     * once. False when nothing else can serve the request: then this attempt's failure is the answer.
     */
    private boolean retriedElsewhere(Attempt failed, LegFailure failure) {
        failed.end(true);
        Routed next = session.reroute(failed.routed);
        up.metrics().routingTime(model, next.routingNanos());
        RouteDecision decision = next.decision();
        if (!decision.verdict().routed()) {
            LOG.info("request {}: no other pod to retry the prefill on ({})", requestId, decision.reason());
            return false;
        }
        retry.taken();
        up.metrics().prefillRetried(model, failure.metricStatus(), failure.metricCode(), decision.isPd());
        LOG.info("request {}: prefill on {} failed ({}), retrying on {}", requestId,
                failed.routed.decision().prefill().id(), failure.metricCode(), decision.isPd()
                        ? decision.prefill().id() + " + " + decision.target().id() : decision.target().id());
        if (showDecision) {
            DecisionHeader.show(out, decision);
        }
        attempt = new Attempt(next, up, requestId);
        run(attempt);
        return true;
    }

    private void sendDecode(Attempt a, byte[] body) {
        UpstreamLeg leg = new UpstreamLeg(a.routed.decision().target(), a.slots.take(a.routed.decision().target()));
        a.decodeLeg = leg;
        a.decodeTrace = trace.leg(a.routed.decision().isPd() ? RequestTrace.Leg.DECODE : RequestTrace.Leg.SINGLE,
                leg.pod());
        leg.send(up.client(), legOptions.forPod(leg.pod(), a.decodeTrace), body)
                .onSuccess(response -> relay(a, leg, response))
                .onFailure(err -> {
                    if (done || a.over() || !leg.running()) {
                        return;
                    }
                    leg.finished();
                    up.outliers().failed(leg.pod(), String.valueOf(err.getMessage()));
                    a.decodeTrace.failed(Ending.UPSTREAM_UNREACHABLE.metricStatus());
                    fail(Ending.UPSTREAM_UNREACHABLE, 502, (a.routed.decision().isPd() ? "decode" : "target") + " pod "
                            + leg.pod().name() + " unreachable: " + err.getMessage(), null);
                });
        a.legsOut(clientBody);
    }

    /** Streams the pod's answer to the client as it arrives; headers wait for the first chunk (design.md §2). */
    private void relay(Attempt a, UpstreamLeg leg, HttpClientResponse response) {
        up.outliers().answered(leg.pod()); // it answered: whatever it says, it is not a dead pod
        a.answering(response.statusCode());
        response.handler(chunk -> {
            if (done || a.over() || !leg.running()) {
                return;
            }
            if (a.watchdog != null) {
                a.watchdog.chunk();
            }
            phases.chunk(chunk);
            answer.write(response, chunk);
            if (out.writeQueueFull()) {
                clientStalled(a, response);
            }
        });
        response.exceptionHandler(err -> {
            if (done || a.over() || !leg.running()) {
                return;
            }
            leg.finished();
            a.decodeTrace.failed(Ending.UPSTREAM_BROKE_OFF.metricStatus());
            LOG.warn("request {}: {} broke off: {}", requestId, leg.pod().id(), err.toString());
            String message = "pod " + leg.pod().name() + " broke off the response: " + err.getMessage();
            if (!answer.started()) {
                fail(Ending.UPSTREAM_FAILED, 502, message, null);
            } else {
                finish(Ending.UPSTREAM_BROKE_OFF, 502);
                answer.cutShort(Ending.UPSTREAM_BROKE_OFF.error(502, message, null));
            }
        });
        response.endHandler(v -> {
            if (done || a.over() || !leg.running()) {
                return;
            }
            leg.finished();
            int status = response.statusCode();
            a.decodeTrace.answered(status);
            if (status >= 200 && status < 300) {
                up.metrics().success(model, leg.pod().name());
                phases.report(up.metrics().phases(model, GatewayMetrics.route(a.routed.decision())),
                        System.nanoTime());
                finish(null, status);
            } else {
                a.answeredError();
                finish(Ending.UPSTREAM_FAILED, status);
            }
            answer.end(response);
        });
    }

    /** The client stopped reading: its write queue is full (the slow-client rule is {@link WriteStall}'s). */
    private void clientStalled(Attempt a, HttpClientResponse response) {
        if (a.stall == null) {
            a.stall = new WriteStall(up.vertx(), up.settings().upstream().clientWriteStallSeconds(),
                    () -> clientTooSlow(a));
        }
        a.stall.stalled(out, response, a.watchdog, () -> done || a.over());
    }

    private void clientTooSlow(Attempt a) {
        if (done || a.over()) {
            return;
        }
        LOG.info("request {}: the client read nothing for {} s; closing its connection", requestId,
                up.settings().upstream().clientWriteStallSeconds());
        finish(Ending.CLIENT_SLOW, 499);
        out.reset();
    }

    private void watchdogFired(Attempt a, String why) {
        if (done || a.over()) {
            return;
        }
        boolean pd = a.routed.decision().isPd();
        Ending ending = pd ? Ending.DECODE_WATCHDOG : Ending.UPSTREAM_TIMEOUT;
        String header = pd ? SpecHeaders.ERROR_PD_DECODE : null;
        LOG.warn("request {}: {} on {}: {}", requestId, pd ? "decode watchdog" : "upstream timeout",
                a.routed.decision().target().id(), why);
        if (!answer.started()) {
            fail(ending, 504, why, header);
        } else {
            // Spec: a 200 with a truncated body and a stream error; counted with the 504 all the same.
            finish(ending, 504);
            answer.cutShort(ending.error(504, why, header));
        }
    }

    private void fail(Ending ending, int status, String message, String header) {
        finish(ending, status);
        answer.error(ending.error(status, message, header));
    }

    /**
     * The single end of every request: ends the current attempt (releasing its lease) and counts the outcome;
     * {@code ending} null is success. Callers finish before they write the client's last bytes: over HTTP/2 ending the
     * response closes its stream at once, which fires the close handler, and that must find the request already
     * settled, not a departed client.
     */
    private void finish(Ending ending, int statusCode) {
        if (done) {
            return;
        }
        done = true;
        attempt.end(ending != null);
        trace.end(statusCode, ending == null ? null : ending.metricStatus());
        up.metrics().requestEnded();
        if (ending != null) {
            up.metrics().failure(model, ending.metricStatus(), statusCode,
                    attempt.routed.decision().target().name());
        }
    }
}
