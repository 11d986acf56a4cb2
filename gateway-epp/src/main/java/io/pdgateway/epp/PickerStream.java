package io.pdgateway.epp;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
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
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.LegPlan;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.engine.LegSchedule;
import io.pdgateway.server.exchange.LegAborter;
import io.pdgateway.server.exchange.LegFailure;
import io.pdgateway.server.exchange.LegOptions;
import io.pdgateway.server.exchange.PrefillCall;
import io.pdgateway.server.front.ApiError;
import io.pdgateway.server.front.OpenAiRequest;
import io.pdgateway.server.front.OpenAiRequestParser;
import io.pdgateway.server.routing.PromptMeasurer;
import io.pdgateway.server.routing.RoutingService;
import io.pdgateway.server.trace.HeaderGetters;
import io.pdgateway.server.trace.LegTrace;
import io.pdgateway.server.trace.RequestTrace;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
 * locks, and the prefill leg runs on the gateway's own HTTP client. The request ends exactly once ({@link #finish}):
 * the lease's prefill part is released when the prefill returns, the whole lease at the end, and a prefill still
 * running when the request fails or is reset is abandoned and aborted at its pod.
 */
final class PickerStream implements StreamObserver<ProcessingRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(PickerStream.class);
    /** Ending statuses (the failure metric's labels), beside serve's own. */
    static final String STREAM_RESET = "client_cancel";
    static final String PREFILL_FAILED = "pd_prefill_fail";
    static final String UPSTREAM_ERROR = "upstream_error";
    /** Envoy's pseudo-headers. */
    private static final String PATH = ":path";
    private static final String METHOD = ":method";
    private static final String STATUS = ":status";

    private enum Phase { HEADERS, BODY, ROUTING, FORWARDED, RESPONDING, DONE }

    private final PickerContext picker;
    private final StreamObserver<ProcessingResponse> out;
    private final Context context;
    private Phase phase = Phase.HEADERS;
    private BodyMode requestMode;
    private BodyMode responseMode;
    private final Map<String, String> headers = new HashMap<>();
    private Set<String> subset;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private String requestId;
    private RequestTrace trace = RequestTrace.OFF;
    private OpenAiRequest request;
    private Routed routed;
    private EngineAdapter adapter;
    private LegPlan plan;
    private PrefillCall prefillCall;
    private LegAborter aborter;
    private LegTrace prefillTrace = LegTrace.OFF;
    private LegTrace decodeTrace = LegTrace.OFF;
    private boolean prefillFailedLate;
    private int responseStatus;
    private boolean started;

    PickerStream(PickerContext picker, StreamObserver<ProcessingResponse> out) {
        this.picker = picker;
        this.out = out;
        this.context = picker.vertx().getOrCreateContext();
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
            headers.put(header.getKey().toLowerCase(Locale.ROOT), value(header));
        }
        subset = subsetHint(message.getMetadataContext().getFilterMetadataMap().get(EppProtocol.SUBSET_HINT_NAMESPACE));
        requestId = headers.get(SpecHeaders.REQUEST_ID);
        if (requestId == null || requestId.isBlank()) {
            requestId = UUID.randomUUID().toString();
        }
        if (requestMode == null) {
            requestMode = picker.defaultBodyMode();
        }
        String path = stripQuery(headers.get(PATH));
        boolean api = OpenAiRequestParser.CHAT_PATH.equals(path) || OpenAiRequestParser.COMPLETIONS_PATH.equals(path);
        if (!"POST".equals(headers.get(METHOD)) || !api) {
            reject(ApiError.of(404, "the endpoint picker routes POST " + OpenAiRequestParser.CHAT_PATH + " and POST "
                    + OpenAiRequestParser.COMPLETIONS_PATH + ", not " + headers.get(METHOD) + " " + path, "not_found"),
                    "not_found");
            return;
        }
        if (!picker.apiKeys().admits(headers.get("authorization"))) {
            picker.metrics().rejected("unauthorized");
            reject(ApiError.of(401, "missing or invalid API key", "invalid_api_key"), "unauthorized");
            return;
        }
        if (picker.draining()) {
            reject(ApiError.of(503, "the gateway is shutting down; retry on another replica", "gateway_draining"),
                    "gateway_draining");
            return;
        }
        if (http.getEndOfStream()) {
            reject(ApiError.of(400, "the request has no body", "invalid_request_body"), "invalid_body");
            return;
        }
        if (requestMode == BodyMode.UNSUPPORTED) {
            reject(ApiError.of(500, "the endpoint picker needs the request body before it answers the headers: set the "
                    + "ext_proc filter's request_body_mode to BUFFERED or FULL_DUPLEX_STREAMED", "epp_misconfigured"),
                    "epp_misconfigured");
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
        if (body.size() + chunk.getBody().size() > picker.settings().front().maxRequestBodyBytes()) {
            picker.metrics().rejected("body_too_large");
            reject(ApiError.of(413, "request body larger than " + picker.settings().front().maxRequestBodyBytes()
                    + " bytes", "request_too_large"), "body_too_large");
            return;
        }
        body.writeBytes(chunk.getBody().toByteArray());
        if (!chunk.getEndOfStream()) {
            return; // FULL_DUPLEX_STREAMED: the answers wait for the body's end
        }
        phase = Phase.ROUTING;
        onBody(body.toByteArray());
    }

    // --- routing: the same steps as serve's front, on the same session ---

    private void onBody(byte[] raw) {
        String path = stripQuery(headers.get(PATH));
        trace = picker.tracing().request(headers, HeaderGetters.LOWER_CASE_MAP, "POST", path);
        try {
            request = OpenAiRequestParser.parse(path, raw);
        } catch (OpenAiRequestParser.Rejected e) {
            picker.metrics().rejected("invalid_body");
            reject(e.error(), "invalid_body");
            return;
        }
        Admission admission = picker.routing().session().admit(request.model(), headers.get(SpecHeaders.ROUTING_STRATEGY),
                headers.get(SpecHeaders.CONFIG_PROFILE));
        if (!admission.admitted()) {
            ApiError refused = RoutingService.error(admission.refusal(), request.model());
            picker.metrics().failure(request.model(), refused.code(), refused.status(), null);
            reject(refused, refused.code());
            return;
        }
        trace.describe(request.model(), OpenAiRequestParser.operation(path), admission.model().engine());
        adapter = admission.strategy().isPd() ? picker.upstreams().engines().forEngine(admission.model().engine()) : null;
        Object admittedBody;
        try {
            admittedBody = adapter == null ? null : adapter.admit(request.raw());
        } catch (EngineProtocolException e) {
            ApiError refused = ApiError.of(400, "request body cannot be routed to " + adapter.engine()
                    + " prefill/decode pods: " + e.getMessage(), "invalid_request_body");
            picker.metrics().failure(request.model(), refused.code(), refused.status(), null);
            reject(refused, refused.code());
            return;
        }
        PromptMeasurer measurer = picker.routing().measurer();
        if (!PromptMeasurer.expensive(request, admission.needs())) {
            route(admission, admittedBody, measurer.measure(request, admission.needs()));
            return;
        }
        picker.vertx().executeBlocking(() -> measurer.measure(request, admission.needs()), false).onComplete(ar -> {
            if (phase != Phase.ROUTING) {
                return; // reset meanwhile
            }
            if (ar.succeeded()) {
                route(admission, admittedBody, ar.result());
            } else {
                reject(ApiError.of(500, "could not measure the prompt: " + ar.cause(), "internal_error"),
                        "internal_error");
            }
        });
    }

    private void route(Admission admission, Object admittedBody, PromptFeatures features) {
        Set<String> excluded = outsideSubset(admission);
        routed = picker.routing().session().route(admission, features, requestId, headers.get(SpecHeaders.SESSION_KEY),
                excluded);
        RouteDecision decision = routed.decision();
        picker.metrics().routingTime(request.model(), routed.routingNanos());
        trace.routed(decision, routed.routingNanos());
        picker.metrics().requestStarted(request.model());
        started = true;
        if (!decision.verdict().routed()) {
            String status = decision.verdict().name().toLowerCase(Locale.ROOT);
            // Protocol: no eligible endpoint in the proxy's subset is a 503.
            int code = subset != null ? 503 : decision.verdict().httpStatus();
            fail(code, ApiError.of(code, decision.reason(), status), status);
            return;
        }
        picker.metrics().routed(request.model(), decision);
        aborter = new LegAborter(picker.upstreams(), admission.knobs(), requestId);
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
        LegRequest legs = new LegRequest(request.path(), request.raw(), request.body(), admittedBody, decision.prefill(),
                decision.target(), picker.settings().engines().kvConnectorType(), requestId, null);
        if (adapter.prerequisite() == null) {
            runLegs(legs);
            return;
        }
        picker.upstreams().prerequisites().get(decision.prefill(), adapter.prerequisite())
                .onComplete(value -> context.runOnContext(v -> prerequisite(legs, value)));
    }

    private void prerequisite(LegRequest legs, AsyncResult<Object> value) {
        if (phase != Phase.ROUTING) {
            return;
        }
        if (value.failed()) {
            fail(503, ApiError.of(503, "the " + adapter.engine() + " plan needs the metadata of prefill pod "
                    + legs.prefill().name() + ": " + value.cause().getMessage(), "server_info_unavailable"),
                    "pd_server_info_fail");
            return;
        }
        runLegs(legs.withPrerequisite(value.result()));
    }

    /** The legs AIBrix's plugin runs from the picker: the prefill here, the decode through Envoy. */
    private void runLegs(LegRequest legs) {
        try {
            plan = adapter.plan(legs);
        } catch (EngineProtocolException | RuntimeException e) {
            fail(502, ApiError.of(502, "cannot build the prefill/decode legs: " + e.getMessage(), "pd_plan_failed"),
                    "pd_plan_fail");
            return;
        }
        Pod prefill = legs.prefill();
        LegOptions options = new LegOptions(headers::get, request.path(), requestId, !picker.apiKeys().required());
        prefillTrace = trace.leg(RequestTrace.Leg.PREFILL, prefill);
        picker.metrics().prefillStarted();
        long timeoutMs = LegAborter.millis(routed.admission().knobs().prefillRequestTimeout());
        prefillCall = PrefillCall.start(picker.upstreams(), prefill, options.forPod(prefill, prefillTrace),
                plan.prefillBody(), timeoutMs, answer -> prefillAnswered(legs, answer), this::prefillFailed);
        if (plan.schedule() == LegSchedule.CONCURRENT) {
            // SGLang, TensorRT-LLM generation_first: the engines meet over their own channel; Envoy sends the decode now.
            forward(legs.decode(), plan.decodeBody(), RequestTrace.Leg.DECODE);
        }
    }

    private void prefillAnswered(LegRequest legs, byte[] answer) {
        prefillTrace.answered(200);
        byte[] decodeBody = null;
        if (plan.schedule() == LegSchedule.SEQUENTIAL && phase == Phase.ROUTING) {
            try {
                decodeBody = adapter.decodeBody(legs, plan, answer);
            } catch (EngineProtocolException | RuntimeException e) {
                prefillFailed(LegFailure.protocol(e.toString()));
                return;
            }
        }
        picker.metrics().prefillSucceeded();
        routed.lease().prefillAnswered();
        if (decodeBody != null) {
            forward(legs.decode(), decodeBody, RequestTrace.Leg.DECODE);
        }
    }

    private void prefillFailed(LegFailure failure) {
        prefillTrace.failed(failure.metricStatus() + " " + failure.metricCode());
        picker.metrics().prefillFailed(failure.metricStatus(), failure.metricCode());
        LOG.warn("request {}: prefill on {} failed: {}", requestId, routed.decision().prefill().id(), failure.message());
        aborter.abort(prefillCall.leg(), plan.prefillAbort());
        if (phase == Phase.ROUTING) {
            ApiError error = ApiError.of(failure.clientStatus(), failure.message(), "prefill_failed")
                    .withHeader(SpecHeaders.ERROR_PD_PREFILL);
            fail(failure.clientStatus(), error, PREFILL_FAILED);
        } else if (phase == Phase.FORWARDED) {
            prefillFailedLate = true; // concurrent legs: answered on the response headers if they come first
        }
    }

    /** Sends Envoy on to {@code target}: the destination header and metadata, and the decode body when it changed. */
    private void forward(Pod target, byte[] newBody, RequestTrace.Leg leg) {
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
        if (requestMode == BodyMode.BUFFERED) {
            send(PickerResponses.bufferedPick(PickerResponses.set(set), newBody, endpoint));
        } else {
            for (ProcessingResponse response : PickerResponses.streamedPick(PickerResponses.set(set),
                    newBody != null ? newBody : request.raw(), endpoint)) {
                send(response);
            }
        }
    }

    // --- the response, as Envoy relays it ---

    private void responseHeaders(ProcessingRequest message) {
        if (phase != Phase.FORWARDED) {
            send(PickerResponses.responseHeaders(PickerResponses.set(Map.of())));
            return;
        }
        phase = Phase.RESPONDING;
        HttpHeaders http = message.getResponseHeaders();
        for (HeaderValue header : http.getHeaders().getHeadersList()) {
            if (STATUS.equals(header.getKey())) {
                responseStatus = parseStatus(value(header));
            }
        }
        RouteDecision decision = routed.decision();
        String served = served(message.getMetadataContext().getFilterMetadataMap().get(EppProtocol.LB_NAMESPACE));
        if (served != null && !served.equals(decision.target().address())) {
            LOG.warn("request {}: Envoy served {} instead of the picked {}", requestId, served,
                    decision.target().address());
        }
        if (prefillFailedLate && responseStatus / 100 == 2) {
            // SGLang's decode is waiting for KV that will never come: fail the request, as serve does.
            fail(502, ApiError.of(502, "prefill pod " + decision.prefill().name() + " failed",
                    "prefill_failed").withHeader(SpecHeaders.ERROR_PD_PREFILL), PREFILL_FAILED);
            return;
        }
        Map<String, String> set = new LinkedHashMap<>();
        set.put(SpecHeaders.TARGET_POD, decision.target().name());
        if (decision.isPd()) {
            set.put(SpecHeaders.PREFILL_TARGET_POD, decision.prefill().name());
        }
        set.put(SpecHeaders.ROUTING_STRATEGY, decision.strategy().specName());
        set.put(SpecHeaders.REQUEST_ID, requestId);
        send(PickerResponses.responseHeaders(PickerResponses.set(set)));
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

    // --- endings ---

    /** Refuses before any routing: a local reply, and the request ends. */
    private void reject(ApiError error, String why) {
        send(PickerResponses.error(error, requestId));
        finish(error.status(), why);
    }

    /** Fails a routed request with a local reply (Envoy sends it to the client instead of any upstream answer). */
    private void fail(int status, ApiError error, String why) {
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
        if (failure != null && prefillCall != null && prefillCall.running()) {
            prefillCall.cancel();
            picker.metrics().prefillFailed("context_canceled", 499);
            prefillTrace.failed("abandoned");
            aborter.abort(prefillCall.leg(), plan.prefillAbort());
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
                picker.metrics().success(request.model(), routed.decision().target().name());
            } else {
                RouteDecision decision = routed.decision();
                picker.metrics().failure(request.model(), failure, status,
                        decision.target() == null ? null : decision.target().name());
            }
        }
    }

    // --- protocol details ---

    private static String value(HeaderValue header) {
        return header.getRawValue().isEmpty() ? header.getValue() : header.getRawValue().toStringUtf8();
    }

    private static String stripQuery(String path) {
        if (path == null) {
            return "";
        }
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }

    private static int parseStatus(String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The proxy's subset hint: ip:port strings, as a list or one comma-separated string; null when absent. */
    static Set<String> subsetHint(Struct namespace) {
        if (namespace == null || !namespace.containsFields(EppProtocol.DESTINATION_ENDPOINT_SUBSET)) {
            return null;
        }
        Value value = namespace.getFieldsOrThrow(EppProtocol.DESTINATION_ENDPOINT_SUBSET);
        Set<String> endpoints = new LinkedHashSet<>();
        if (value.hasListValue()) {
            for (Value entry : value.getListValue().getValuesList()) {
                addEndpoints(endpoints, entry.getStringValue());
            }
        } else {
            addEndpoints(endpoints, value.getStringValue());
        }
        return endpoints;
    }

    private static void addEndpoints(Set<String> endpoints, String list) {
        for (String endpoint : list.split(",")) {
            if (!endpoint.isBlank()) {
                endpoints.add(endpoint.trim());
            }
        }
    }

    private static String served(Struct namespace) {
        if (namespace == null || !namespace.containsFields(EppProtocol.DESTINATION_ENDPOINT_SERVED)) {
            return null;
        }
        return namespace.getFieldsOrThrow(EppProtocol.DESTINATION_ENDPOINT_SERVED).getStringValue();
    }

    /**
     * The pods Envoy may not be sent to: with a subset hint, every decode or single pod of the model whose address is
     * not in it. Prefill pods are the picker's own business (Envoy never connects to them), so the hint leaves them be.
     */
    private Set<String> outsideSubset(Admission admission) {
        if (subset == null) {
            return Set.of();
        }
        Set<String> excluded = new HashSet<>();
        for (Pod pod : admission.model().pods()) {
            if (pod.role() != io.pdgateway.core.model.PodRole.PREFILL && !subset.contains(pod.address())) {
                excluded.add(pod.id());
            }
        }
        return excluded;
    }
}
