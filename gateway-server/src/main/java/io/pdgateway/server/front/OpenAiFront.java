package io.pdgateway.server.front;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.core.spec.SpecHeaders;
import io.pdgateway.engine.EngineAdapter;
import io.pdgateway.engine.JsonBodies;
import io.pdgateway.server.discovery.PodSource;
import io.pdgateway.server.exchange.ClientBody;
import io.pdgateway.server.exchange.Exchange;
import io.pdgateway.server.exchange.Upstreams;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.session.Admission;
import io.pdgateway.core.session.PromptFeatures;
import io.pdgateway.core.session.Routed;
import io.pdgateway.server.routing.EngineAdmission;
import io.pdgateway.server.routing.RoutingService;
import io.pdgateway.server.trace.HeaderGetters;
import io.pdgateway.server.trace.RequestTrace;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OpenAI-compatible HTTP front: reads and validates the request, routes it, and hands it to an {@link Exchange}.
 * Also serves /v1/models, /healthz, /readyz and /metrics.
 */
public final class OpenAiFront {
    private static final Logger LOG = LoggerFactory.getLogger(OpenAiFront.class);
    /** pd_gateway_rejected_requests_total reason of a body that is not a valid chat or completions request. */
    static final String INVALID_BODY = "invalid_body";
    /** pd_gateway_rejected_requests_total reason of a request without an accepted API key. */
    static final String UNAUTHORIZED = "unauthorized";
    /** The probes and the scrape stay open when API keys are required: kubelets and Prometheus carry none. */
    private static final Set<String> OPEN_PATHS = Set.of("/healthz", "/readyz", "/metrics");
    /** pd_gateway_rejected_requests_total reason of a request whose framing or Host header breaks RFC 9112. */
    static final String INVALID_HTTP = "invalid_http";
    /** pd_gateway_rejected_requests_total reason, and the error code, of a POST whose body is declared not JSON. */
    static final String UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type";
    /** pd_gateway_rejected_requests_total reason, and the error code, of a preflight from an origin not allowed. */
    static final String CORS_ORIGIN_NOT_ALLOWED = "cors_origin_not_allowed";
    /** Every path the front serves and the one method it serves it with; any other method gets 405 with Allow. */
    private static final Map<String, HttpMethod> ROUTES = Map.of(
            OpenAiRequestParser.CHAT_PATH, HttpMethod.POST, OpenAiRequestParser.COMPLETIONS_PATH, HttpMethod.POST,
            "/v1/models", HttpMethod.GET, "/healthz", HttpMethod.GET, "/readyz", HttpMethod.GET,
            "/metrics", HttpMethod.GET, "/debug/bucket-plan", HttpMethod.GET);
    private final Upstreams up;
    private final RoutingService routing;
    private final PodSource pods;
    private final BooleanSupplier draining;
    private final ApiKeys apiKeys;
    private final CorsPolicy cors;

    public OpenAiFront(Upstreams up, RoutingService routing, PodSource pods, BooleanSupplier draining,
            ApiKeys apiKeys, CorsPolicy cors) {
        this.up = up;
        this.routing = routing;
        this.pods = pods;
        this.draining = draining;
        this.apiKeys = apiKeys;
        this.cors = cors;
    }

    /** Answers, and counts, a request whose head the listener with these options could not decode. */
    public Handler<HttpServerRequest> undecodableRequests(HttpServerOptions options) {
        return UndecodableRequests.answering(options, up.metrics()::rejected);
    }

    /** @param body the request's account of held body bytes, given back when the request ends */
    public void handle(HttpServerRequest req, HeldBodies.Account body) {
        ApiError malformed = HttpRules.violation(req);
        if (malformed != null) {
            // The request's framing or target is in doubt, so is whatever follows it on the connection.
            up.metrics().rejected(INVALID_HTTP);
            respondAndClose(req, malformed);
            return;
        }
        String path = req.path();
        if (cors.enabled()) {
            if (CorsPolicy.isPreflight(req)) {
                preflight(req, path);
                return;
            }
            cors.decorate(req); // before any answer, errors included: a page reads why it was refused
        }
        if (!OPEN_PATHS.contains(path) && !apiKeys.admits(req.getHeader(HttpHeaders.AUTHORIZATION))) {
            unauthorized(req);
            return;
        }
        HttpMethod allowed = ROUTES.get(path);
        if (allowed == null) {
            noRoute(req, path);
            return;
        }
        if (!serves(allowed, req.method())) {
            String methods = methods(allowed);
            req.response().putHeader(HttpHeaders.ALLOW, methods);
            respond(req.response(), ApiError.of(405, req.method() + " is not allowed on " + path + "; use "
                    + methods, "method_not_allowed"));
            return;
        }
        if (allowed == HttpMethod.POST) {
            if (draining.getAsBoolean()) {
                // The listener is already closed; this one came on a kept-alive connection. Send the client elsewhere.
                req.response().putHeader(HttpHeaders.CONNECTION, "close");
                respond(req.response(), ApiError.of(503, "the gateway is shutting down; retry on another replica",
                        "gateway_draining"));
                return;
            }
            if (!HttpRules.acceptsAsJson(req.getHeader(HttpHeaders.CONTENT_TYPE))) {
                up.metrics().rejected(UNSUPPORTED_MEDIA_TYPE);
                respondAndClose(req, ApiError.of(415, "the body must be JSON: send Content-Type: application/json "
                        + "(curl: -H 'Content-Type: application/json')", UNSUPPORTED_MEDIA_TYPE));
                return;
            }
            readBody(req, body);
            return;
        }
        switch (path) {
            case "/healthz" -> req.response().end("ok");
            case "/readyz" -> {
                boolean ready = pods.ready() && !draining.getAsBoolean();
                req.response().setStatusCode(ready ? 200 : 503).end(ready ? "ready" : "not ready");
            }
            case "/metrics" -> req.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")
                    .end(up.metrics().scrape());
            case "/v1/models" -> req.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json").end(models());
            case "/debug/bucket-plan" -> debugBucketPlan(req);
            default -> throw new IllegalStateException("a GET route without a handler: " + path);
        }
    }

    /**
     * A page's CORS preflight: for an allowed origin and a route, the route's methods; a browser sends no API key
     * with it, so none is asked for. An origin not allowed gets 403 and no CORS header, which the browser reports,
     * whatever the path: without a key, it learns nothing of which paths exist.
     */
    private void preflight(HttpServerRequest req, String path) {
        String origin = req.getHeader(HttpHeaders.ORIGIN);
        if (!cors.allows(origin)) {
            up.metrics().rejected(CORS_ORIGIN_NOT_ALLOWED);
            req.response().putHeader(HttpHeaders.VARY, HttpHeaders.ORIGIN);
            respond(req.response(), ApiError.of(403, "origin '" + RoutingService.quoted(origin) + "' is not in "
                    + SpecEnv.CORS_ALLOWED_ORIGINS, CORS_ORIGIN_NOT_ALLOWED));
            return;
        }
        HttpMethod allowed = ROUTES.get(path);
        if (allowed == null) {
            noRoute(req, path);
            return;
        }
        cors.answerPreflight(req, methods(allowed));
    }

    private static void noRoute(HttpServerRequest req, String path) {
        respond(req.response(), ApiError.of(404, "no route for " + req.method() + " " + path, "not_found"));
    }

    /** The methods a route serves, as Allow and Access-Control-Allow-Methods list them. */
    private static String methods(HttpMethod route) {
        return route == HttpMethod.GET ? "GET, HEAD" : route.name();
    }

    /**
     * Whether a route of this method serves a request of that one: HEAD wherever GET is (RFC 9110 §9.3.2), as a
     * load balancer's or uptime checker's probe of /healthz or /v1/models sends it; Vert.x leaves the body out.
     */
    private static boolean serves(HttpMethod route, HttpMethod asked) {
        return asked == route || route == HttpMethod.GET && asked == HttpMethod.HEAD;
    }

    /** OpenAI's answer to a missing or wrong key: 401, authentication_error, invalid_api_key. */
    private void unauthorized(HttpServerRequest req) {
        up.metrics().rejected(UNAUTHORIZED);
        boolean presented = req.getHeader(HttpHeaders.AUTHORIZATION) != null;
        req.response().putHeader("WWW-Authenticate", "Bearer");
        respond(req.response(), ApiError.of(401, presented ? "invalid API key"
                : "missing API key: send it as Authorization: Bearer <key>", "invalid_api_key"));
    }

    private void readBody(HttpServerRequest req, HeldBodies.Account body) {
        BodyReader.read(up.vertx(), req, body, up.settings().front().maxRequestBodyBytes(),
                Math.round(up.settings().front().requestBodyTimeoutSeconds() * 1000), raw -> {
                    if (req.version() == HttpVersion.HTTP_2) {
                        // A client's RST_STREAM often arrives in the same read as the stream's last DATA frame: one
                        // turn of the event loop later it has been seen, and the request stops before it reaches a
                        // pod (route() checks), rather than opening a pod connection only to reset it.
                        up.vertx().getOrCreateContext().runOnContext(v -> bodyRead(req, raw, body));
                    } else {
                        bodyRead(req, raw, body);
                    }
                }, up.metrics()::rejected);
    }

    private void bodyRead(HttpServerRequest req, byte[] raw, HeldBodies.Account body) {
        if (req.response().closed()) {
            return;
        }
        try {
            onBody(req, raw, body);
        } catch (RuntimeException e) {
            // A bug, but the client gets an answer rather than a connection that never speaks again.
            LOG.error("request body handling failed", e);
            respond(req.response(), ApiError.of(500, "internal error", "internal_error"));
        }
    }

    private void onBody(HttpServerRequest req, byte[] raw, HeldBodies.Account body) {
        RequestTrace trace = up.tracing().request(req, HeaderGetters.VERTX, req.method().name(), req.path());
        OpenAiRequest request;
        try {
            request = OpenAiRequestParser.parse(req.path(), raw);
        } catch (OpenAiRequestParser.Rejected e) {
            up.metrics().rejected(INVALID_BODY);
            trace.end(e.error().status(), INVALID_BODY);
            respond(req.response(), e.error());
            return;
        }
        String requestId = req.getHeader(SpecHeaders.REQUEST_ID);
        if (requestId == null || requestId.isBlank()) {
            requestId = RequestIds.next();
        }
        req.response().putHeader(SpecHeaders.REQUEST_ID, requestId);
        Admission admission = routing.session().admit(request.model(), req.getHeader(SpecHeaders.ROUTING_STRATEGY),
                req.getHeader(SpecHeaders.CONFIG_PROFILE));
        if ("true".equalsIgnoreCase(req.getHeader(SpecHeaders.PD_DEBUG))) {
            admission = admission.explained(); // the decision keeps its score table for x-pd-decision
        }
        if (!admission.admitted()) {
            ApiError refused = RoutingService.error(admission.refusal(), request.model());
            up.metrics().failure(request.model(), refused.code(), refused.status(), null);
            trace.end(refused.status(), refused.code());
            respond(req.response(), refused);
            return;
        }
        trace.describe(request.model(), OpenAiRequestParser.operation(request.path()), admission.model().engine());
        EngineAdmission engine = EngineAdmission.check(admission, up.engines(), request.members(),
                up.settings().routing());
        if (engine.refused()) {
            ApiError refused = engine.refusal();
            up.metrics().failure(request.model(), refused.code(), refused.status(), null);
            trace.end(refused.status(), refused.code());
            respond(req.response(), refused);
            return;
        }
        Admitted admitted = new Admitted(request, engine.admission(), engine.adapter(), engine.admittedBody(),
                requestId, trace, body);
        // The body is already read in full: nothing to pause while a worker measures a long prompt.
        routing.measurer().measure(up.vertx(), request, engine.admission()).onComplete(ar -> {
            if (ar.succeeded()) {
                route(req, admitted, ar.result());
            } else {
                trace.end(500, "internal_error");
                LOG.error("measuring the prompt failed", ar.cause());
                respond(req.response(), ApiError.of(500, "internal error: could not measure the prompt",
                        "internal_error"));
            }
        });
    }

    /** A request past admission: what the exchange needs besides its decision. */
    private record Admitted(OpenAiRequest request, Admission admission, EngineAdapter adapter, Object admittedBody,
            String requestId, RequestTrace trace, HeldBodies.Account body) {}

    private void route(HttpServerRequest req, Admitted admitted, PromptFeatures features) {
        if (req.response().closed()) {
            admitted.trace().end(499, "client_cancel");
            return;
        }
        OpenAiRequest request = admitted.request();
        Routed routed = routing.session().route(admitted.admission(), features, admitted.requestId(),
                req.getHeader(SpecHeaders.SESSION_KEY));
        RouteDecision decision = routed.decision();
        up.metrics().routingTime(request.model(), routed.routingNanos());
        admitted.trace().routed(decision, routed.routingNanos());
        req.response().putHeader(SpecHeaders.ROUTING_STRATEGY, decision.strategy().specName());
        boolean debug = "true".equalsIgnoreCase(req.getHeader(SpecHeaders.PD_DEBUG));
        if (debug) {
            DecisionHeader.show(req.response(), decision);
        }
        up.metrics().requestStarted(request.model());
        if (!decision.verdict().routed()) {
            String status = decision.verdict().name().toLowerCase(java.util.Locale.ROOT);
            up.metrics().requestEnded();
            up.metrics().failure(request.model(), status, decision.verdict().httpStatus(), null);
            admitted.trace().end(decision.verdict().httpStatus(), status);
            respond(req.response(), ApiError.of(decision.verdict().httpStatus(), decision.reason(), status)
                    .withRetryAfter(decision.verdict().retryAfterSeconds()));
            return;
        }
        ClientBody body = new ClientBody(request, admitted.admittedBody(), admitted.body()::release);
        new Exchange(up, routing.session(), req, body, routed, admitted.adapter(), debug, !apiKeys.required(),
                admitted.trace()).start();
    }

    /** The adaptive bucket plan as JSON; only with PD_GATEWAY_DEBUG_ENDPOINTS=true, since it shows internal state. */
    private void debugBucketPlan(HttpServerRequest req) {
        if (!up.settings().front().debugEndpoints()) {
            respond(req.response(), ApiError.of(404, "debug endpoints are off; set PD_GATEWAY_DEBUG_ENDPOINTS=true",
                    "not_found"));
            return;
        }
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        io.pdgateway.core.bucket.BucketPlan plan = routing.session().bucketPlan();
        root.put("enabled", plan != null);
        ObjectNode models = root.putObject("models");
        if (plan != null) {
            plan.bands().forEach((model, bands) -> {
                ArrayNode list = models.putArray(model);
                for (io.pdgateway.core.bucket.Band band : bands) {
                    list.addObject().put("roleset", band.roleset()).put("lower", band.lower()).put("upper", band.upper());
                }
            });
        }
        req.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(new String(JsonBodies.write(root), java.nio.charset.StandardCharsets.UTF_8));
    }

    private String models() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("object", "list");
        ArrayNode data = root.putArray("data");
        for (ModelPods model : pods.current().models()) {
            ObjectNode entry = data.addObject();
            entry.put("id", model.model());
            entry.put("object", "model");
            entry.put("created", 0);
            entry.put("owned_by", "pd-gateway");
        }
        return new String(JsonBodies.write(root), java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Answers with the error and closes the connection once it is written (HTTP/1.x; an HTTP/2 stream ends on its
     * own): for refusals that leave the rest of the request unread on the wire, or its framing in doubt.
     */
    static Future<Void> respondAndClose(HttpServerRequest req, ApiError error) {
        req.response().putHeader(HttpHeaders.CONNECTION, "close");
        return respond(req.response(), error).onComplete(sent -> {
            if (req.version() != HttpVersion.HTTP_2) {
                req.connection().close();
            }
        });
    }

    /** Answers with the error, unless the response is already over; completes once it is written. */
    static Future<Void> respond(HttpServerResponse response, ApiError error) {
        if (response.ended() || response.closed()) {
            return Future.succeededFuture();
        }
        return error.head(response).end(error.body());
    }
}
