package io.pdgateway.server.front;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.spec.SpecHeaders;
import io.pdgateway.engine.EngineAdapter;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.JsonBodies;
import io.pdgateway.server.discovery.PodSource;
import io.pdgateway.server.exchange.Exchange;
import io.pdgateway.server.exchange.Upstreams;
import io.pdgateway.server.routing.PromptTokenizer;
import io.pdgateway.server.routing.RoutingService;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.UUID;
import java.util.function.BooleanSupplier;

/**
 * The OpenAI-compatible HTTP front: reads and validates the request, routes it, and hands it to an {@link Exchange}.
 * Also serves /v1/models, /healthz, /readyz and /metrics.
 */
public final class OpenAiFront implements Handler<HttpServerRequest> {
    /**
     * Prompts longer than this many characters are tokenized on a worker thread: cl100k over ~32 KB of text takes
     * milliseconds, long enough to delay every other stream on the same event loop.
     */
    static final int INLINE_TOKENIZE_MAX_CHARS = 32 * 1024;

    private final Upstreams up;
    private final RoutingService routing;
    private final PodSource pods;
    private final BooleanSupplier draining;

    public OpenAiFront(Upstreams up, RoutingService routing, PodSource pods, BooleanSupplier draining) {
        this.up = up;
        this.routing = routing;
        this.pods = pods;
        this.draining = draining;
    }

    @Override
    public void handle(HttpServerRequest req) {
        String path = req.path();
        if (req.method() == HttpMethod.POST
                && (OpenAiRequestParser.CHAT_PATH.equals(path) || OpenAiRequestParser.COMPLETIONS_PATH.equals(path))) {
            readBody(req);
            return;
        }
        if (req.method() != HttpMethod.GET) {
            respond(req.response(), ApiError.of(req.method() == HttpMethod.POST ? 404 : 405,
                    "no route for " + req.method() + " " + path, "not_found"));
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
            default -> respond(req.response(), ApiError.of(404, "no route for GET " + path, "not_found"));
        }
    }

    private void readBody(HttpServerRequest req) {
        int limit = up.settings().maxRequestBodyBytes();
        String length = req.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null && parseLong(length) > limit) {
            tooLarge(req, limit);
            return;
        }
        Buffer body = Buffer.buffer();
        boolean[] rejected = {false};
        req.handler(chunk -> {
            if (rejected[0]) {
                return;
            }
            if (body.length() + chunk.length() > limit) {
                rejected[0] = true;
                tooLarge(req, limit);
                return;
            }
            body.appendBuffer(chunk);
        });
        req.endHandler(v -> {
            if (!rejected[0]) {
                onBody(req, body.getBytes());
            }
        });
    }

    private static void tooLarge(HttpServerRequest req, int limit) {
        // Close afterwards: the rest of the body is still on the wire and not worth reading.
        req.response().putHeader(HttpHeaders.CONNECTION, "close");
        respond(req.response(), ApiError.of(413, "request body exceeds " + limit + " bytes", "request_too_large"));
    }

    private void onBody(HttpServerRequest req, byte[] raw) {
        OpenAiRequest request;
        try {
            request = OpenAiRequestParser.parse(req.path(), raw);
        } catch (OpenAiRequestParser.Rejected e) {
            respond(req.response(), e.error());
            return;
        }
        String requestId = req.getHeader(SpecHeaders.REQUEST_ID);
        if (requestId == null || requestId.isBlank()) {
            requestId = UUID.randomUUID().toString();
        }
        req.response().putHeader(SpecHeaders.REQUEST_ID, requestId);
        String id = requestId;
        if (!routing.needsPromptTokens()) {
            route(req, request, id, -1);
        } else if (request.promptTokenIds() >= 0) {
            route(req, request, id, request.promptTokenIds());
        } else if (request.promptText().length() <= INLINE_TOKENIZE_MAX_CHARS) {
            route(req, request, id, PromptTokenizer.count(request.promptText()));
        } else {
            req.pause();
            up.vertx().executeBlocking(() -> PromptTokenizer.count(request.promptText()), false)
                    .onComplete(ar -> {
                        req.resume();
                        route(req, request, id, ar.succeeded() ? ar.result() : 0);
                    });
        }
    }

    private void route(HttpServerRequest req, OpenAiRequest request, String requestId, int promptTokens) {
        if (req.response().closed()) {
            return;
        }
        RoutingService.Outcome outcome = routing.route(request.model(), requestId,
                req.getHeader(SpecHeaders.ROUTING_STRATEGY), req.getHeader(SpecHeaders.CONFIG_PROFILE), promptTokens,
                model -> pdBodyProblem(model, request));
        if (outcome.error() != null) {
            up.metrics().failure(request.model(), outcome.error().code(), outcome.error().status(), null);
            respond(req.response(), outcome.error());
            return;
        }
        req.response().putHeader(SpecHeaders.ROUTING_STRATEGY, outcome.decision().strategy());
        up.metrics().requestStarted(request.model());
        if (!outcome.decision().verdict().routed()) {
            up.metrics().requestEnded();
            up.metrics().failure(request.model(), outcome.decision().verdict().name().toLowerCase(java.util.Locale.ROOT),
                    outcome.decision().verdict().httpStatus(), null);
            respond(req.response(), ApiError.of(outcome.decision().verdict().httpStatus(), outcome.decision().reason(),
                    outcome.decision().verdict().name().toLowerCase(java.util.Locale.ROOT)));
            return;
        }
        new Exchange(up, req, request, outcome, requestId).start();
    }

    /** The engine's refusal of a body its PD protocol cannot carry (SGLang: duplicate controlled keys), else null. */
    private ApiError pdBodyProblem(ModelPods model, OpenAiRequest request) {
        EngineAdapter adapter = up.engines().forEngine(model.engine());
        if (adapter == null) {
            return null;
        }
        try {
            adapter.validate(request.raw());
            return null;
        } catch (EngineProtocolException e) {
            return ApiError.of(400, "request body cannot be routed to " + adapter.engine() + " prefill/decode pods: "
                    + e.getMessage(), "invalid_request_body");
        }
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

    static void respond(HttpServerResponse response, ApiError error) {
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(error.status()).putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
        if (error.extraHeader() != null) {
            response.putHeader(error.extraHeader(), "true");
        }
        response.end(error.body());
    }

    private static long parseLong(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
