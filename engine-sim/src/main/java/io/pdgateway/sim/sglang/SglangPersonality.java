package io.pdgateway.sim.sglang;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimRole;
import io.pdgateway.sim.api.ApiException;
import io.pdgateway.sim.api.CompletionApi;
import io.pdgateway.sim.api.CompletionExchange;
import io.pdgateway.sim.api.CompletionRequest;
import io.pdgateway.sim.api.EnginePersonality;
import io.pdgateway.sim.api.JsonCodec;
import io.pdgateway.sim.api.ObjectErrorBody;
import io.pdgateway.sim.api.PodContext;
import io.pdgateway.sim.api.PrometheusText;
import io.pdgateway.sim.api.RequestScope;
import io.pdgateway.sim.api.RouteTable;
import io.pdgateway.sim.api.TokenizeEndpoint;
import io.pdgateway.sim.kv.KvPlan;
import io.pdgateway.sim.kv.KvRendezvous;
import io.pdgateway.sim.kv.KvRendezvousFetcher;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * SGLang's OpenAI server in disaggregation mode (upstream-pd-router.md §1.3): prefill and decode get the request at
 * the same time and meet over the prefill pod's bootstrap server.
 * <ul>
 *   <li>both roles refuse a request without its bootstrap fields (400): a prefill needs {@code bootstrap_room}, a
 *       decode also {@code bootstrap_host}; a {@code bootstrap_port} that is absent or null means the server's own
 *       {@code --disaggregation-bootstrap-port} ({@link SimConfig#bootstrapPort()}, default 8998), as SGLang's
 *       scheduler reads it;</li>
 *   <li>prefill role: runs a bootstrap server on {@link SimConfig#bootstrapPort()}; a finished prefill holds its KV
 *       under its room and <em>answers only once a decode took it</em> (500 when none did within
 *       SGLANG_DISAGGREGATION_BOOTSTRAP_TIMEOUT);</li>
 *   <li>decode role: a stream's headers go out at once, then the decode asks
 *       {@code bootstrap_host:bootstrap_port} for the room's KV (waiting up to SGLANG_DISAGGREGATION_WAITING_TIMEOUT)
 *       and fails (500, or an error event on an open stream) when it cannot get it;</li>
 *   <li>{@code POST /abort_request {"rid": ...}} (or {@code abort_all}) drops the request: finish_reason "abort";</li>
 *   <li>{@code /metrics} with SGLang's {@code sglang:} names (reference §4); errors as
 *       {@code {"object":"error", message, type, param, code}};</li>
 *   <li>the native API other routers use: {@code /generate} ({@link SglangGenerateApi}) and the endpoints of
 *       {@link SglangNativeEndpoints} ({@code /get_server_info}, {@code /get_model_info}, {@code /get_load},
 *       {@code /health_generate}, {@code /flush_cache}, ...).</li>
 * </ul>
 */
public final class SglangPersonality implements EnginePersonality {

    public static final String NAME = "sglang";
    static final String ABORT_PATH = "/abort_request";
    /** SGLANG_DISAGGREGATION_BOOTSTRAP_TIMEOUT default, 300 s: how long a prefill waits for its decode. */
    static final double BOOTSTRAP_TIMEOUT_MILLIS = 300_000;
    /** SGLANG_DISAGGREGATION_WAITING_TIMEOUT default, 300 s: how long a decode waits for its KV. */
    static final double WAITING_TIMEOUT_MILLIS = 300_000;

    private PodContext pod;
    private KvRendezvous rendezvous;
    private KvRendezvousFetcher fetcher;
    private SglangMetrics metrics;
    private HttpServer bootstrap;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public double[] firstTokenBuckets() {
        return SglangMetrics.TTFT_BUCKETS;
    }

    @Override
    public double[] requestPhaseBuckets() {
        return SglangMetrics.E2E_BUCKETS;
    }

    @Override
    public void attach(PodContext pod, RouteTable routes) {
        this.pod = pod;
        this.rendezvous = new KvRendezvous(pod, BOOTSTRAP_TIMEOUT_MILLIS, WAITING_TIMEOUT_MILLIS);
        this.fetcher = new KvRendezvousFetcher(pod);
        this.metrics = new SglangMetrics(pod, rendezvous);
        routes.add(HttpMethod.GET, SglangMetrics.PATH, (request, body) -> request.response()
                .putHeader("content-type", PrometheusText.CONTENT_TYPE).end(metrics.render()));
        routes.add(HttpMethod.POST, ABORT_PATH, this::abort);
        new SglangNativeEndpoints(pod).register(routes);
        new TokenizeEndpoint(pod, false).register(routes);
    }

    @Override
    public List<CompletionApi> nativeApis() {
        return List.of(new SglangGenerateApi());
    }

    @Override
    public Future<Void> start() {
        if (pod.config().role() != SimRole.PREFILL) {
            return Future.succeededFuture();
        }
        bootstrap = pod.vertx().createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
            if (request.method() == HttpMethod.GET && request.path().startsWith(KvRendezvous.PREFIX)) {
                rendezvous.handle(request, body.toString());
            } else {
                request.response().setStatusCode(404).end();
            }
        }));
        return bootstrap.listen(pod.config().bootstrapPort(), pod.config().host()).map(server -> {
            pod.bootstrapBound(server.actualPort());
            return null;
        });
    }

    @Override
    public Future<Void> stop() {
        return bootstrap == null ? Future.succeededFuture() : bootstrap.close();
    }

    @Override
    public void validate(CompletionRequest request) throws ApiException {
        if (pod.config().role() == SimRole.COMBINED) {
            return;
        }
        JsonNode body = request.body();
        room(body);
        if (pod.config().role() == SimRole.DECODE) {
            JsonNode host = body.get("bootstrap_host");
            if (host == null || !host.isTextual() || host.asText().isBlank()) {
                throw ApiException.badRequest("Disaggregated decode requires bootstrap_host");
            }
            JsonNode port = body.get("bootstrap_port");
            if (port != null && !port.isNull() && (!port.canConvertToInt() || !port.isIntegralNumber()
                    || port.asInt() < 1 || port.asInt() > 65_535)) {
                throw ApiException.badRequest("bootstrap_port must be a port number or null, got " + port);
            }
        }
    }

    private static long room(JsonNode body) throws ApiException {
        JsonNode room = body.get("bootstrap_room");
        if (room == null || !room.isIntegralNumber() || !room.canConvertToLong() || room.asLong() < 0) {
            throw ApiException.badRequest("Disaggregated serving requires bootstrap_room (an integer >= 0), got "
                    + room);
        }
        return room.asLong();
    }

    @Override
    public boolean streamHeadersFirst() {
        return true;
    }

    /** SGLang names a request by the body's rid; the response id then carries it. */
    @Override
    public String requestId(CompletionRequest request, String requestIdHeader) {
        return request.rid();
    }

    @Override
    public Future<KvPlan> planKv(CompletionRequest request, FaultConfig faults, RequestScope scope) {
        if (pod.config().role() != SimRole.DECODE) {
            return Future.succeededFuture(KvPlan.LOCAL_PREFILL);
        }
        JsonNode body = request.body();
        String host = body.get("bootstrap_host").asText();
        JsonNode requested = body.get("bootstrap_port");
        // SGLang's scheduler: a request without a bootstrap port uses the server's own.
        int port = requested == null || requested.isNull() ? pod.config().bootstrapPort() : requested.asInt();
        long room = body.get("bootstrap_room").asLong();
        return fetcher.plan(host, port, Long.toString(room), room, request.prompt(), WAITING_TIMEOUT_MILLIS, faults,
                scope);
    }

    @Override
    public Future<Void> release(CompletionRequest request, RequestScope scope) {
        if (pod.config().role() != SimRole.PREFILL) {
            return Future.succeededFuture();
        }
        long room = request.body().get("bootstrap_room").asLong();
        return rendezvous.deposit(Long.toString(room), room, request.prompt(), scope)
                .recover(e -> Future.failedFuture(KvRendezvousFetcher.KV_FAILURE + e.getMessage()));
    }

    @Override
    public void completeResponse(CompletionRequest request, ObjectNode response) {
        // SGLang adds no P/D fields to its answers.
    }

    /** {@code POST /abort_request}: drops the live request named by rid, or every one with abort_all. */
    private void abort(HttpServerRequest request, String body) {
        JsonNode json;
        try {
            json = JsonCodec.MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            json = null;
        }
        if (json == null || !json.isObject()) {
            request.response().setStatusCode(400).putHeader("content-type", CompletionExchange.JSON_CONTENT_TYPE)
                    .end(JsonCodec.write(errorBody(400, "expected {\"rid\": ...} or {\"abort_all\": true}")));
            return;
        }
        List<CompletionExchange> targets = new ArrayList<>();
        if (json.path("abort_all").asBoolean(false)) {
            targets.addAll(pod.live().values());
        } else if (pod.live().get(json.path("rid").asText("")) != null) {
            targets.add(pod.live().get(json.path("rid").asText("")));
        }
        for (CompletionExchange target : targets) {
            if (target.abort()) {
                pod.requestsAborted().incrementAndGet();
            }
        }
        request.response().setStatusCode(200).end();
    }

    /** SGLang's ErrorResponse (its OpenAI protocol module). */
    @Override
    public ObjectNode errorBody(int status, String message) {
        return ObjectErrorBody.of(status, message);
    }
}
