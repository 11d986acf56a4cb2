package io.pdgateway.epp;

import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.stub.StreamObserver;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.session.Admission;
import io.pdgateway.core.session.PromptFeatures;
import io.pdgateway.core.session.Routed;
import io.pdgateway.core.spec.SpecHeaders;
import io.pdgateway.engine.EngineAdapter;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.server.exchange.LegOptions;
import io.pdgateway.server.front.ApiError;
import io.pdgateway.server.front.OpenAiRequest;
import io.pdgateway.server.front.OpenAiRequestParser;
import io.pdgateway.server.routing.EngineAdmission;
import io.pdgateway.server.routing.RoutingService;
import io.pdgateway.server.trace.HeaderGetters;
import io.pdgateway.server.trace.LegTrace;
import io.pdgateway.server.trace.RequestTrace;
import io.vertx.core.Context;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ext_proc stream, which is one HTTP request through Envoy: reads the headers and the body, routes it through the
 * gateway's routing session exactly as {@code serve} does, runs the prefill leg itself for a PD pair (as AIBrix's
 * gateway plugin does), and sends Envoy on to the decode (or single) pod with the destination header, the
 * {@code envoy.lb} metadata and, for a pair, the decode body. Then it watches the response go by, adds serve's
 * response headers, and ends the request when the response ends, the trailers come, or the stream is reset or closed.
 *
 * <p>Every message is handled on one Vert.x context (the gRPC threads only hand messages over), so the state needs no
 * locks. The request ends exactly once ({@link #finish}), releasing its lease and abandoning a running prefill.
 */
final class PickerStream implements StreamObserver<ProcessingRequest>, PickerLegs.Stream {
    private static final Logger LOG = LoggerFactory.getLogger(PickerStream.class);
    /** Ending statuses (the failure metric's labels), beside serve's own. */
    static final String STREAM_RESET = "client_cancel";
    static final String PREFILL_FAILED = "pd_prefill_fail";
    static final String UPSTREAM_ERROR = "upstream_error";
    /** Envoy's pseudo-headers. */
    private static final String PATH = ":path";
    private static final String METHOD = ":method";

    private enum Phase { HEADERS, BODY, ROUTING, FORWARDED, RESPONDING, DONE }

    private final PickerContext picker;
    private final StreamObserver<ProcessingResponse> out;
    private final Context context;
    private Phase phase = Phase.HEADERS;
    private BodyMode requestMode;
    private BodyMode responseMode;
    private final Map<String, String> headers = new HashMap<>();
    private Set<String> subset;
    private final PickerBody body;
    private String requestId;
    private RequestTrace trace = RequestTrace.OFF;
    /** The parsed request, until the pick is sent (a held stream keeps no body); its model, for its end's metrics. */
    private OpenAiRequest request;
    private String model;
    private Routed routed;
    private EngineAdapter adapter;
    /** A PD pair's legs, once routed to one; null otherwise. */
    private PickerLegs legs;
    private LegTrace decodeTrace = LegTrace.OFF;
    private int responseStatus;
    private boolean started;

    PickerStream(PickerContext picker, StreamObserver<ProcessingResponse> out) {
        this.picker = picker;
        this.out = out;
        this.context = picker.vertx().getOrCreateContext();
        this.body = new PickerBody(picker.settings().front().maxRequestBodyBytes(), picker.heldBodies().open());
    }

    // --- gRPC side: hand every message over to the stream's context ---

    @Override
    public void onNext(ProcessingRequest message) {
        context.runOnContext(v -> {
            try {
                handle(message);
            } catch (RuntimeException e) {
                LOG.error("request {}: ext_proc message handling failed", requestId, e);
                fail(500, ApiError.of(500, "internal error: " + e, "internal_error"), "internal_error");
            }
        });
    }

    /** Envoy reset the stream (the client went away, or Envoy gave up): everything held is released. */
    @Override
    public void onError(Throwable t) {
        context.runOnContext(v -> {
            if (phase != Phase.DONE) {
                LOG.debug("request {}: ext_proc stream reset: {}", requestId, t.toString());
            }
            finish(499, STREAM_RESET);
        });
    }

    /** Envoy closed the stream: the HTTP request is over, whether or not its response's end went by here. */
    @Override
    public void onCompleted() {
        context.runOnContext(v -> {
            if (phase == Phase.RESPONDING && responseStatus / 100 == 2) {
                finish(responseStatus, null);
            } else {
                finish(responseStatus == 0 ? 499 : responseStatus, responseStatus == 0 ? STREAM_RESET : UPSTREAM_ERROR);
            }
            out.onCompleted();
        });
    }

    private void send(ProcessingResponse response) {
        try {
            out.onNext(response);
        } catch (RuntimeException e) {
            // The stream was cancelled under us: onError follows and ends the request.
            LOG.debug("request {}: could not answer Envoy: {}", requestId, e.toString());
        }
    }

    // --- the messages ---

    private void handle(ProcessingRequest message) {
        if (message.hasProtocolConfig()) {
            requestMode = BodyMode.of(message.getProtocolConfig().getRequestBodyMode(), null);
            responseMode = BodyMode.of(message.getProtocolConfig().getResponseBodyMode(), null);
        }
        switch (message.getRequestCase()) {
            case REQUEST_HEADERS -> requestHeaders(message);
            case REQUEST_BODY -> requestBody(message.getRequestBody());
            case REQUEST_TRAILERS -> send(PickerResponses.continueTrailers(false));
            case RESPONSE_HEADERS -> responseHeaders(message);
            case RESPONSE_BODY -> responseBody(message.getResponseBody());
            case RESPONSE_TRAILERS -> {
                send(PickerResponses.continueTrailers(true));
                finish(responseStatus, responseStatus / 100 == 2 ? null : UPSTREAM_ERROR);
            }
            default -> LOG.debug("request {}: ignoring ext_proc message {}", requestId, message.getRequestCase());
        }
    }

    private void requestHeaders(ProcessingRequest message) {
        HttpHeaders http = message.getRequestHeaders();
        for (HeaderValue header : http.getHeaders().getHeadersList()) {
            headers.put(header.getKey().toLowerCase(Locale.ROOT), EnvoyMessages.value(header));
        }
        subset = EnvoyMessages.subsetHint(
                message.getMetadataContext().getFilterMetadataMap().get(EppProtocol.SUBSET_HINT_NAMESPACE));
        requestId = headers.get(SpecHeaders.REQUEST_ID);
        if (requestId == null || requestId.isBlank()) {
            requestId = UUID.randomUUID().toString();
        }
        if (requestMode == null) {
            requestMode = picker.defaultBodyMode();
        }
        String path = EnvoyMessages.stripQuery(headers.get(PATH));
        HeaderChecks.Refusal refusal = HeaderChecks.refusal(headers.get(METHOD), path,
                picker.apiKeys().admits(headers.get("authorization")), picker.draining(), http.getEndOfStream(),
                requestMode);
        if (refusal != null) {
            if (refusal.counted()) {
                picker.metrics().rejected(refusal.reason());
            }
            reject(refusal.error(), refusal.reason());
            return;
        }
        phase = Phase.BODY;
        if (requestMode == BodyMode.BUFFERED) {
            send(PickerResponses.continueRequestHeaders());
        }
    }

    private void requestBody(HttpBody chunk) {
        if (phase != Phase.BODY) {
            return;
        }
        PickerBody.Refusal refused = body.add(chunk.getBody());
        if (refused != null) {
            picker.metrics().rejected(refused.reason());
            reject(refused.error(), refused.reason());
            return;
        }
        if (!chunk.getEndOfStream()) {
            return; // FULL_DUPLEX_STREAMED: the answers wait for the body's end
        }
        phase = Phase.ROUTING;
        onBody(body.take());
    }

    // --- routing: the same steps as serve's front, on the same session ---

    private void onBody(byte[] raw) {
        String path = EnvoyMessages.stripQuery(headers.get(PATH));
        trace = picker.tracing().request(headers, HeaderGetters.LOWER_CASE_MAP, "POST", path);
        try {
            request = OpenAiRequestParser.parse(path, raw);
            model = request.model();
        } catch (OpenAiRequestParser.Rejected e) {
            picker.metrics().rejected("invalid_body");
            reject(e.error(), "invalid_body");
            return;
        }
        Admission admission = picker.routing().session().admit(request.model(), headers.get(SpecHeaders.ROUTING_STRATEGY),
                headers.get(SpecHeaders.CONFIG_PROFILE));
        if (!admission.admitted()) {
            refuse(RoutingService.error(admission.refusal(), request.model()));
            return;
        }
        trace.describe(request.model(), OpenAiRequestParser.operation(path), admission.model().engine());
        EngineAdmission engine = EngineAdmission.check(admission, picker.upstreams().engines(), request.members(),
                picker.settings().routing());
        if (engine.refused()) {
            refuse(engine.refusal());
            return;
        }
        adapter = engine.adapter();
        picker.routing().measurer().measure(picker.vertx(), request, engine.admission()).onComplete(ar -> {
            if (phase != Phase.ROUTING) {
                return; // reset meanwhile
            }
            if (ar.succeeded()) {
                route(engine.admission(), engine.admittedBody(), ar.result());
            } else {
                reject(ApiError.of(500, "could not measure the prompt: " + ar.cause(), "internal_error"),
                        "internal_error");
            }
        });
    }

    private void route(Admission admission, Object admittedBody, PromptFeatures features) {
        Set<String> excluded = EnvoyMessages.outsideSubset(subset, admission);
        routed = picker.routing().session().route(admission, features, requestId, headers.get(SpecHeaders.SESSION_KEY),
                excluded);
        RouteDecision decision = routed.decision();
        picker.metrics().routingTime(model, routed.routingNanos());
        trace.routed(decision, routed.routingNanos());
        picker.metrics().requestStarted(model);
        started = true;
        if (!decision.verdict().routed()) {
            String status = decision.verdict().name().toLowerCase(Locale.ROOT);
            // Protocol: no eligible endpoint in the proxy's subset is a 503.
            int code = subset != null ? 503 : decision.verdict().httpStatus();
            fail(code, ApiError.of(code, decision.reason(), status)
                    .withRetryAfter(decision.verdict().retryAfterSeconds()), status);
            return;
        }
        picker.metrics().routed(model, decision);
        if (!decision.isPd()) {
            forward(decision.target(), null, RequestTrace.Leg.SINGLE);
            return;
        }
        picker.metrics().selected(decision.prefill(), decision.target());
        if (adapter == null) {
            fail(501, ApiError.of(501, "PD routing for engine " + admission.model().engine()
                    + " is not supported by this gateway version", "engine_not_supported"), "engine_not_supported");
            return;
        }
        LegOptions options = new LegOptions(headers::get, request.path(), requestId, !picker.apiKeys().required());
        legs = new PickerLegs(picker, this, context, adapter, routed, trace, options, requestId);
        legs.start(new LegRequest(request.path(), request.raw(), admittedBody, decision.prefill(),
                decision.target(), picker.settings().engines().kvConnectorType(), requestId, null));
    }

    @Override
    public boolean routing() {
        return phase == Phase.ROUTING;
    }

    /** Sends Envoy on to {@code target}: the destination header and metadata, and the decode body when it changed. */
    @Override
    public void forward(Pod target, byte[] newBody, RequestTrace.Leg leg) {
        phase = Phase.FORWARDED;
        String endpoint = target.address();
        Map<String, String> set = new LinkedHashMap<>();
        set.put(EppProtocol.DESTINATION_ENDPOINT, endpoint);
        set.put(SpecHeaders.REQUEST_ID, requestId);
        if (newBody != null) {
            set.put("content-length", Integer.toString(newBody.length));
        }
        decodeTrace = trace.leg(leg, target);
        decodeTrace.inject(set::put);
        ProcessingResponse[] picks = requestMode == BodyMode.BUFFERED
                ? new ProcessingResponse[] {PickerResponses.bufferedPick(PickerResponses.set(set), newBody, endpoint)}
                : PickerResponses.streamedPick(PickerResponses.set(set), newBody != null ? newBody : request.raw(),
                        endpoint);
        for (ProcessingResponse response : picks) {
            send(response);
        }
        // Envoy has what it sends on and no leg is built any more: a held stream neither counts nor keeps the body.
        body.release();
        request = null;
    }

    // --- the response, as Envoy relays it ---

    private void responseHeaders(ProcessingRequest message) {
        if (phase != Phase.FORWARDED) {
            send(PickerResponses.responseHeaders(PickerResponses.set(Map.of())));
            return;
        }
        phase = Phase.RESPONDING;
        HttpHeaders http = message.getResponseHeaders();
        responseStatus = EnvoyMessages.status(http);
        RouteDecision decision = routed.decision();
        if (!decision.isPd()) {
            routed.lease().singlePodAnswered(responseStatus);
        }
        String served = EnvoyMessages.served(
                message.getMetadataContext().getFilterMetadataMap().get(EppProtocol.LB_NAMESPACE));
        if (served != null && !served.equals(decision.target().address())) {
            LOG.warn("request {}: Envoy served {} instead of the picked {}", requestId, served,
                    decision.target().address());
        }
        if (legs != null && legs.prefillFailedLate() && responseStatus / 100 == 2) {
            // SGLang's decode is waiting for KV that will never come: fail the request, as serve does.
            fail(502, ApiError.of(502, "prefill pod " + decision.prefill().name() + " failed",
                    "prefill_failed").withHeader(SpecHeaders.ERROR_PD_PREFILL), PREFILL_FAILED);
            return;
        }
        send(PickerResponses.responseHeaders(PickerResponses.set(PickerResponses.servedHeaders(decision, requestId))));
        if (http.getEndOfStream()) {
            finish(responseStatus, responseStatus / 100 == 2 ? null : UPSTREAM_ERROR);
        }
    }

    private void responseBody(HttpBody chunk) {
        boolean duplex = responseMode == BodyMode.FULL_DUPLEX_STREAMED;
        send(duplex ? PickerResponses.streamedBody(chunk.getBody().toByteArray(), chunk.getEndOfStream(), true)
                : PickerResponses.continueResponseBody());
        if (chunk.getEndOfStream() && phase == Phase.RESPONDING) {
            finish(responseStatus, responseStatus / 100 == 2 ? null : UPSTREAM_ERROR);
        }
    }

    /** Refuses before any routing: a local reply, and the request ends. */
    private void reject(ApiError error, String why) {
        fail(error.status(), error, why);
    }

    /** Refuses after the body was read and before routing: counted as a failure of the model. */
    private void refuse(ApiError refused) {
        picker.metrics().failure(model, refused.code(), refused.status(), null);
        reject(refused, refused.code());
    }

    /** Fails a routed request with a local reply (Envoy sends it to the client instead of any upstream answer). */
    @Override
    public void fail(int status, ApiError error, String why) {
        send(PickerResponses.error(error, requestId));
        finish(status, why);
    }

    /**
     * The request's one end: releases the lease (prefill part included), abandons a prefill still running when the
     * request did not succeed, ends the spans and counts the outcome. Idempotent.
     *
     * @param failure null for success, else the failure metric's status
     */
    private void finish(int status, String failure) {
        if (phase == Phase.DONE) {
            return;
        }
        phase = Phase.DONE;
        body.release();
        if (failure != null && legs != null) {
            legs.abandon();
        }
        if (routed != null) {
            routed.lease().release();
        }
        if (failure == null) {
            decodeTrace.answered(status);
        } else {
            decodeTrace.failed(failure);
        }
        trace.end(status, failure);
        if (started) {
            picker.metrics().requestEnded();
            if (failure == null) {
                picker.metrics().success(model, routed.decision().target().name());
            } else {
                Pod target = routed.decision().target();
                picker.metrics().failure(model, failure, status, target == null ? null : target.name());
            }
        }
    }
}
