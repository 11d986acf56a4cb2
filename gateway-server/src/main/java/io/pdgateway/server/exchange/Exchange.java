package io.pdgateway.server.exchange;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.spec.SpecHeaders;
import io.pdgateway.engine.EngineAdapter;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.LegPlan;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.engine.LegSchedule;
import io.pdgateway.engine.trtllm.TrtServerInfo;
import io.pdgateway.server.front.ApiError;
import io.pdgateway.server.front.OpenAiRequest;
import io.pdgateway.server.routing.RoutingService;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the legs of one routed request and relays the answer. A PD request's legs follow the engine's plan: the
 * prefill first and then the decode (vLLM, TensorRT-LLM context_first), or both at once (SGLang, TensorRT-LLM
 * generation_first, whose plan first needs the context worker's /server_info). The decode or single leg is streamed
 * to the client chunk by chunk, its headers held until its first chunk so that a failure can still be a clean error.
 *
 * <p>Failure rules, keyed on "has anything reached the client yet?": a prefill that fails transiently before that is
 * tried once more on other pods ({@link PrefillRetryPolicy}, {@link Reroute}); one that cannot be retried fails the
 * request ({@code x-error-pd-prefill}); the decode watchdog answers 504 ({@code x-error-pd-decode}) before the first
 * byte and cuts the stream short after it; a request that ends in any failure, the client's departure included,
 * aborts every leg still running ({@link LegAborter}). A request that succeeded lets a still-running prefill finish on
 * its own: it is about to.
 *
 * <p>Every callback runs on the client connection's event loop, so the state below needs no locks. Every way the
 * request can end goes through {@link #finish}, which sets {@code done} first (aborting a leg fires its handlers at
 * once, and they must find the request settled), then releases the current attempt's charges exactly once; a retry
 * releases the failed attempt's charges before the router charges the next.
 */
public final class Exchange {
    private static final Logger LOG = LoggerFactory.getLogger(Exchange.class);

    private final Upstreams up;
    private final HttpServerResponse out;
    private final OpenAiRequest request;
    private final String requestId;
    private final Context context;
    private final LegAborter aborter;
    private final ClientAnswer answer;
    private final LegOptions legOptions;
    private final Reroute reroute;
    private final PrefillRetryPolicy retry;
    private final PhaseTimes phases = new PhaseTimes();
    private RoutingService.Outcome outcome;
    private RouteDecision decision;
    private EngineAdapter adapter;
    private LegRequest legRequest;
    private LegPlan plan;
    private PrefillCall prefillCall;
    private UpstreamLeg decodeLeg;
    private DecodeWatchdog watchdog;
    private boolean done;

    /**
     * @param forwardAuthorization whether the client's Authorization header goes on to the pods (not when it is the
     *     gateway's own API key)
     */
    public Exchange(Upstreams up, HttpServerRequest client, OpenAiRequest request, RoutingService.Outcome outcome,
            String requestId, Reroute reroute, boolean forwardAuthorization) {
        this.up = up;
        this.out = client.response();
        this.request = request;
        this.outcome = outcome;
        this.decision = outcome.decision();
        this.requestId = requestId;
        this.context = Vertx.currentContext();
        this.aborter = new LegAborter(up, outcome.knobs(), requestId);
        this.answer = new ClientAnswer(out);
        this.legOptions = new LegOptions(client, request.path(), requestId, forwardAuthorization);
        this.reroute = reroute;
        this.retry = new PrefillRetryPolicy(up.settings().prefillRetry());
    }

    public void start() {
        out.closeHandler(v -> clientGone());
        attempt();
    }

    /** Runs the legs of the current decision: the first one, or a retry's. */
    private void attempt() {
        out.putHeader(SpecHeaders.TARGET_POD, decision.target().name());
        if (!decision.isPd()) {
            out.headers().remove(SpecHeaders.PREFILL_TARGET_POD);
            sendDecode(request.raw());
            return;
        }
        out.putHeader(SpecHeaders.PREFILL_TARGET_POD, decision.prefill().name());
        up.metrics().selected(decision.prefill(), decision.target());
        adapter = up.engines().forEngine(outcome.model().engine());
        if (adapter == null) {
            fail(ApiError.of(501, "PD routing for engine " + outcome.model().engine()
                    + " is not supported by this gateway version", "engine_not_supported"), "engine_not_supported");
            return;
        }
        watchdog = new DecodeWatchdog(up.vertx(), outcome.knobs(), request.stream(), this::watchdogFired);
        LegRequest legs = new LegRequest(request.path(), request.raw(), request.body(), decision.prefill(),
                decision.target(), up.settings().kvConnectorType(), requestId, null);
        if (adapter.serverInfoPath() == null) {
            runLegs(legs);
            return;
        }
        // The lookup may complete on another request's event loop: come back to this one.
        RouteDecision asked = decision;
        up.serverInfo().get(decision.prefill(), adapter).onComplete(info -> onContext(() -> {
            if (decision == asked) {
                serverInfo(legs, info);
            }
        }));
    }

    private void serverInfo(LegRequest legs, AsyncResult<TrtServerInfo> info) {
        if (done) {
            return;
        }
        if (info.failed()) {
            fail(ApiError.of(503, "TensorRT-LLM generation_first needs the metadata of context worker "
                    + decision.prefill().name() + ": " + info.cause().getMessage(), "server_info_unavailable"),
                    "pd_server_info_fail");
            return;
        }
        runLegs(legs.withServerInfo(info.result()));
    }

    private void runLegs(LegRequest legs) {
        try {
            plan = adapter.plan(legs);
        } catch (EngineProtocolException | RuntimeException e) {
            // A runtime exception here is a bug, but the request must still end, and release what it holds, once.
            LOG.warn("request {}: cannot plan the legs: {}", requestId, e.toString());
            fail(ApiError.of(502, "cannot build the prefill/decode legs: " + e.getMessage(), "pd_plan_failed"),
                    "pd_plan_fail");
            return;
        }
        legRequest = legs;
        sendPrefill();
        if (plan.schedule() == LegSchedule.CONCURRENT) {
            sendDecode(plan.decodeBody());
        }
    }

    private void sendPrefill() {
        phases.prefillStarted(plan.schedule() == LegSchedule.SEQUENTIAL);
        up.metrics().prefillStarted();
        long timeoutMs = LegAborter.millis(outcome.knobs().prefillRequestTimeout());
        prefillCall = PrefillCall.start(up, decision.prefill(), legOptions.forPod(decision.prefill()),
                plan.prefillBody(), timeoutMs, this::prefillAnswered, this::prefillFailed);
    }

    private void prefillAnswered(byte[] response) {
        byte[] decodeBody = null;
        if (plan.schedule() == LegSchedule.SEQUENTIAL && !done) {
            try {
                decodeBody = adapter.decodeBody(legRequest, plan, response);
            } catch (EngineProtocolException | RuntimeException e) {
                prefillFailed(LegFailure.protocol(e.toString()));
                return;
            }
        }
        phases.prefillEnded();
        up.metrics().prefillSucceeded();
        outcome.charge().releasePrefill();
        if (done) {
            return; // the decode already answered in full
        }
        if (decodeBody != null) {
            sendDecode(decodeBody);
        }
        watchdog.prefillSucceeded();
    }

    private void prefillFailed(LegFailure failure) {
        up.metrics().prefillFailed(failure.metricStatus(), failure.metricCode());
        LOG.warn("request {}: prefill on {} failed: {}", requestId, decision.prefill().id(), failure.message());
        aborter.abort(prefillCall.leg(), plan.prefillAbort()); // a timed-out prefill still runs at the pod
        if (done) {
            return;
        }
        if (answer.started()) {
            // The decode already streams to the client: it got its KV, so its answer stands.
            return;
        }
        if (retry.allows(failure, answer.started()) && retriedElsewhere(failure)) {
            return;
        }
        if (failure.upstreamBody() != null) {
            finish("pd_prefill_fail", failure.clientStatus());
            answer.passThrough(failure.clientStatus(), failure.upstreamBody(), SpecHeaders.ERROR_PD_PREFILL);
            return;
        }
        fail(ApiError.of(failure.clientStatus(), failure.message(), "prefill_failed")
                .withHeader(SpecHeaders.ERROR_PD_PREFILL), "pd_prefill_fail");
    }

    /**
     * Routes the request again without the prefill pod that failed. This attempt's legs are aborted and its charges
     * released first, so the ledgers never hold both attempts at once. False when nothing else can serve the
     * request: then this attempt's failure is the answer.
     */
    private boolean retriedElsewhere(LegFailure failure) {
        Pod failed = decision.prefill();
        abortRunningLegs();
        watchdog.stop();
        outcome.charge().releaseAll();
        RoutingService.Outcome next = reroute.without(failed);
        if (!next.decision().verdict().routed()) {
            LOG.info("request {}: no other pod to retry the prefill on ({})", requestId, next.decision().reason());
            return false;
        }
        retry.taken();
        up.metrics().prefillRetried(request.model(), failure.metricStatus(), failure.metricCode(),
                next.decision().isPd());
        LOG.info("request {}: prefill on {} failed ({}), retrying on {}", requestId, failed.id(), failure.metricCode(),
                next.decision().isPd() ? next.decision().prefill().id() + " + " + next.decision().target().id()
                        : next.decision().target().id());
        outcome = next;
        decision = next.decision();
        adapter = null;
        legRequest = null;
        plan = null;
        prefillCall = null;
        decodeLeg = null;
        watchdog = null;
        attempt();
        return true;
    }

    private void sendDecode(byte[] body) {
        UpstreamLeg leg = new UpstreamLeg(decision.target());
        decodeLeg = leg;
        leg.send(up.client(), legOptions.forPod(decision.target()), body)
                .onSuccess(response -> relay(leg, response))
                .onFailure(err -> {
                    if (done || !leg.running()) {
                        return;
                    }
                    leg.finished();
                    fail(ApiError.of(502, (decision.isPd() ? "decode" : "target") + " pod " + leg.pod().name()
                            + " unreachable: " + err.getMessage(), "upstream_unreachable"), "upstream_error");
                });
    }

    /**
     * Streams the pod's answer to the client as it arrives; headers wait for the first chunk (design.md §2). A leg
     * given up on (a retry's predecessor) is not heard any more.
     */
    private void relay(UpstreamLeg leg, HttpClientResponse response) {
        response.handler(chunk -> {
            if (done || !leg.running()) {
                return;
            }
            if (watchdog != null) {
                watchdog.chunk();
            }
            phases.chunk();
            answer.write(response, chunk);
            if (out.writeQueueFull()) {
                response.pause();
                out.drainHandler(v -> response.resume());
            }
        });
        response.exceptionHandler(err -> {
            if (done || !leg.running()) {
                return;
            }
            leg.finished();
            LOG.warn("request {}: {} broke off: {}", requestId, leg.pod().id(), err.toString());
            String message = "pod " + leg.pod().name() + " broke off the response: " + err.getMessage();
            if (!answer.started()) {
                fail(ApiError.of(502, message, "upstream_error"), "upstream_error");
            } else {
                finish("upstream_broke_off", 502);
                answer.cutShort(ApiError.of(502, message, "upstream_error"));
            }
        });
        response.endHandler(v -> {
            if (done || !leg.running()) {
                return;
            }
            leg.finished();
            int status = response.statusCode();
            if (status >= 200 && status < 300) {
                up.metrics().success(request.model(), decision.target().name());
                phases.report(up.metrics().phases(request.model()), System.nanoTime());
                finish(null, status);
            } else {
                finish("upstream_error", status);
            }
            answer.end(response);
        });
    }

    private void watchdogFired(String why) {
        if (done) {
            return;
        }
        LOG.warn("request {}: decode watchdog on {}: {}", requestId, decision.target().id(), why);
        ApiError error = ApiError.of(504, why, "decode_timeout").withHeader(SpecHeaders.ERROR_PD_DECODE);
        if (!answer.started()) {
            fail(error, "pd_decode_watchdog");
        } else {
            // Spec: a 200 with a truncated body and a stream error; counted with the 504 all the same.
            finish("pd_decode_watchdog", 504);
            answer.cutShort(error);
        }
    }

    private void fail(ApiError error, String status) {
        finish(status, error.status());
        answer.error(error);
    }

    private void clientGone() {
        finish("client_cancel", 499);
    }

    /**
     * The single end of every request: releases the ledger and counts the outcome. failureStatus null = success.
     * Callers finish before they write the client's last bytes: over HTTP/2 ending the response closes its stream at
     * once, which fires the close handler, and that must find the request already settled, not a departed client.
     */
    private void finish(String failureStatus, int statusCode) {
        if (done) {
            return;
        }
        done = true;
        if (watchdog != null) {
            watchdog.stop();
        }
        if (failureStatus != null) {
            abortRunningLegs();
        }
        outcome.charge().releaseAll();
        up.metrics().requestEnded();
        if (failureStatus != null) {
            up.metrics().failure(request.model(), failureStatus, statusCode, decision.target().name());
        }
    }

    /** The request failed, the client left, or the attempt is retried: no leg still running has anyone to answer. */
    private void abortRunningLegs() {
        if (prefillCall != null && prefillCall.running()) {
            prefillCall.cancel();
            up.metrics().prefillFailed("context_canceled", 499);
        }
        aborter.abort(prefillCall == null ? null : prefillCall.leg(), plan == null ? null : plan.prefillAbort());
        aborter.abort(decodeLeg, plan == null ? null : plan.decodeAbort());
    }

    private void onContext(Runnable action) {
        if (Vertx.currentContext() == context) {
            action.run();
        } else {
            context.runOnContext(v -> action.run());
        }
    }
}
