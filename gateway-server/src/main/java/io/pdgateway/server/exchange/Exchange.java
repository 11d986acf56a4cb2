package io.pdgateway.server.exchange;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.spec.SpecHeaders;
import io.pdgateway.engine.EngineAdapter;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.LegPlan;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.server.front.ApiError;
import io.pdgateway.server.front.OpenAiRequest;
import io.pdgateway.server.routing.RoutingService;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.RequestOptions;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the legs of one routed request and relays the answer: the prefill leg (PD only), then the decode or single
 * leg streamed to the client chunk by chunk as it arrives. Every callback runs on the client connection's event loop,
 * so the state below needs no locks. Every way the request can end (success, leg failure, client gone) goes through
 * {@link #finish}, which releases the ledger exactly once.
 */
public final class Exchange {
    private static final Logger LOG = LoggerFactory.getLogger(Exchange.class);
    /** Client headers worth passing to the pods (upstream forwards the same set). */
    private static final List<String> FORWARDED_HEADERS = List.of("authorization", "traceparent",
            SpecHeaders.SESSION_KEY, SpecHeaders.ROUTING_STRATEGY);

    private enum Phase { PREFILL, TARGET, DONE }

    private final Upstreams up;
    private final HttpServerRequest client;
    private final HttpServerResponse out;
    private final OpenAiRequest request;
    private final RoutingService.Outcome outcome;
    private final RouteDecision decision;
    private final String requestId;
    private Phase phase = Phase.PREFILL;
    private HttpClientRequest activeLeg;
    private long prefillTimer = -1;

    public Exchange(Upstreams up, HttpServerRequest client, OpenAiRequest request, RoutingService.Outcome outcome,
            String requestId) {
        this.up = up;
        this.client = client;
        this.out = client.response();
        this.request = request;
        this.outcome = outcome;
        this.decision = outcome.decision();
        this.requestId = requestId;
    }

    public void start() {
        out.closeHandler(v -> clientGone());
        out.putHeader(SpecHeaders.TARGET_POD, decision.target().name());
        if (decision.isPd()) {
            out.putHeader(SpecHeaders.PREFILL_TARGET_POD, decision.prefill().name());
            up.metrics().selected(decision.prefill(), decision.target());
            EngineAdapter adapter = up.engines().forEngine(outcome.model().engine());
            if (adapter == null) {
                phase = Phase.TARGET;
                fail(ApiError.of(501, "PD routing for engine " + outcome.model().engine()
                        + " is not supported by this gateway version", "engine_not_supported"), "engine_not_supported");
                return;
            }
            runPrefill(adapter);
        } else {
            phase = Phase.TARGET;
            runTarget(decision.target(), request.raw());
        }
    }

    private LegRequest legRequest() {
        return new LegRequest(request.path(), request.raw(), request.body(), decision.prefill(), decision.target(),
                up.settings().kvConnectorType(), requestId, null);
    }

    private void runPrefill(EngineAdapter adapter) {
        byte[] body;
        LegPlan plan;
        try {
            plan = adapter.plan(legRequest());
            body = plan.prefillBody();
        } catch (EngineProtocolException e) {
            prefillFailed(LegFailure.protocol(e.getMessage()));
            return;
        }
        up.metrics().prefillStarted();
        long timeoutMs = (long) (outcome.knobs().prefillRequestTimeout() * 1000);
        prefillTimer = up.vertx().setTimer(timeoutMs, id -> {
            if (phase == Phase.PREFILL) {
                // Answer first: resetting the leg completes its future at once, which must find the prefill settled.
                prefillFailed(LegFailure.timeout(timeoutMs));
                resetActiveLeg();
            }
        });
        up.client().request(options(decision.prefill()))
                .compose(leg -> {
                    if (phase != Phase.PREFILL) {
                        leg.reset();
                        return io.vertx.core.Future.failedFuture("prefill abandoned");
                    }
                    activeLeg = leg;
                    return leg.send(Buffer.buffer(body));
                })
                .compose(response -> response.body().map(b -> new PrefillAnswer(response.statusCode(), b.getBytes())))
                .onComplete(ar -> {
                    if (phase != Phase.PREFILL) {
                        return; // timed out or the client left; already handled
                    }
                    up.vertx().cancelTimer(prefillTimer);
                    activeLeg = null;
                    if (ar.failed()) {
                        prefillFailed(LegFailure.transport(ar.cause()));
                    } else if (ar.result().status() != 200) {
                        prefillFailed(LegFailure.httpStatus(ar.result().status(), ar.result().body()));
                    } else {
                        prefillSucceeded(adapter, plan, ar.result().body());
                    }
                });
    }

    private record PrefillAnswer(int status, byte[] body) {}

    private void prefillSucceeded(EngineAdapter adapter, LegPlan plan, byte[] response) {
        byte[] decodeBody;
        try {
            decodeBody = adapter.decodeBody(legRequest(), plan, response);
        } catch (EngineProtocolException e) {
            prefillFailed(LegFailure.protocol(e.getMessage()));
            return;
        }
        up.metrics().prefillSucceeded();
        outcome.charge().releasePrefill();
        phase = Phase.TARGET;
        runTarget(decision.target(), decodeBody);
    }

    private void prefillFailed(LegFailure failure) {
        up.metrics().prefillFailed(failure.metricStatus(), failure.metricCode());
        LOG.warn("request {}: prefill on {} failed: {}", requestId, decision.prefill().id(), failure.message());
        phase = Phase.TARGET; // so fail() answers the client
        if (failure.upstreamBody() != null) {
            out.setStatusCode(failure.clientStatus())
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .putHeader(SpecHeaders.ERROR_PD_PREFILL, "true");
            out.end(Buffer.buffer(failure.upstreamBody()));
            finish("pd_prefill_fail", failure.clientStatus());
            return;
        }
        fail(ApiError.of(failure.clientStatus(), failure.message(), "prefill_failed")
                .withHeader(SpecHeaders.ERROR_PD_PREFILL), "pd_prefill_fail");
    }

    private void runTarget(Pod pod, byte[] body) {
        up.client().request(options(pod))
                .compose(leg -> {
                    if (phase != Phase.TARGET) {
                        leg.reset();
                        return io.vertx.core.Future.failedFuture("request abandoned");
                    }
                    activeLeg = leg;
                    return leg.send(Buffer.buffer(body));
                })
                .onSuccess(this::relay)
                .onFailure(err -> {
                    if (phase == Phase.TARGET) {
                        fail(ApiError.of(502, (decision.isPd() ? "decode" : "target") + " pod " + pod.name()
                                + " unreachable: " + err.getMessage(), "upstream_unreachable"), "upstream_error");
                    }
                });
    }

    /** Streams the pod's answer to the client as it arrives; headers wait for the first chunk (design.md §2). */
    private void relay(HttpClientResponse response) {
        response.handler(chunk -> {
            if (phase != Phase.TARGET) {
                return;
            }
            writeHeadOnce(response);
            out.write(chunk);
            if (out.writeQueueFull()) {
                response.pause();
                out.drainHandler(v -> response.resume());
            }
        });
        response.exceptionHandler(err -> {
            if (phase != Phase.TARGET) {
                return;
            }
            LOG.warn("request {}: {} broke off: {}", requestId, decision.target().id(), err.toString());
            if (!out.headWritten()) {
                fail(ApiError.of(502, "pod " + decision.target().name() + " broke off the response: " + err.getMessage(),
                        "upstream_error"), "upstream_error");
            } else {
                truncate("upstream_broke_off");
            }
        });
        response.endHandler(v -> {
            if (phase != Phase.TARGET) {
                return;
            }
            writeHeadOnce(response);
            out.end();
            int status = response.statusCode();
            if (status >= 200 && status < 300) {
                up.metrics().success(request.model(), decision.target().name());
                finish(null, status);
            } else {
                finish("upstream_error", status);
            }
        });
    }

    private void writeHeadOnce(HttpClientResponse response) {
        if (out.headWritten()) {
            return;
        }
        out.setStatusCode(response.statusCode());
        String contentType = response.getHeader(HttpHeaders.CONTENT_TYPE);
        if (contentType != null) {
            out.putHeader(HttpHeaders.CONTENT_TYPE, contentType);
        }
        out.setChunked(true);
    }

    /** The stream already started: end it short so the client sees an error, never a silent hang. */
    private void truncate(String status) {
        String contentType = out.headers().get(HttpHeaders.CONTENT_TYPE);
        if (contentType != null && contentType.startsWith("text/event-stream")) {
            ApiError error = ApiError.of(502, "upstream pod broke off the stream", "upstream_error");
            out.end(Buffer.buffer("data: ").appendBuffer(error.body()).appendString("\n\n"));
        } else {
            out.reset();
        }
        finish(status, 502);
    }

    private void fail(ApiError error, String status) {
        if (out.headWritten() || out.ended() || out.closed()) {
            finish(status, error.status());
            return;
        }
        out.setStatusCode(error.status()).putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
        if (error.extraHeader() != null) {
            out.putHeader(error.extraHeader(), "true");
        }
        out.end(error.body());
        finish(status, error.status());
    }

    private void clientGone() {
        if (phase == Phase.DONE) {
            return;
        }
        if (phase == Phase.PREFILL) {
            up.metrics().prefillFailed("context_canceled", 499);
        }
        // Settle first: resetting the leg fires its handlers synchronously, and they must see a finished request.
        finish("client_cancel", 499);
        resetActiveLeg();
    }

    private void resetActiveLeg() {
        if (activeLeg != null) {
            activeLeg.reset(); // HTTP/1.1: closes the pod connection, so the engine stops generating
            activeLeg = null;
        }
    }

    /** The single end of every request: releases the ledger and counts the outcome. failureStatus null = success. */
    private void finish(String failureStatus, int statusCode) {
        if (phase == Phase.DONE) {
            return;
        }
        phase = Phase.DONE;
        up.vertx().cancelTimer(prefillTimer);
        outcome.charge().releaseAll();
        up.metrics().requestEnded();
        if (failureStatus != null) {
            up.metrics().failure(request.model(), failureStatus, statusCode, decision.target().name());
        }
    }

    private RequestOptions options(Pod pod) {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(pod.ip()).setPort(pod.port())
                .setURI(request.path())
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader("X-Request-Id", requestId);
        for (String name : FORWARDED_HEADERS) {
            String value = client.getHeader(name);
            if (value != null) {
                options.putHeader(name, value);
            }
        }
        return options;
    }
}
