package io.pdgateway.sim.vllm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.pdgateway.sim.api.CompletionRequest;
import io.pdgateway.sim.api.EnginePersonality;
import io.pdgateway.sim.api.JsonCodec;
import io.pdgateway.sim.api.PodContext;
import io.pdgateway.sim.api.PrometheusText;
import io.pdgateway.sim.api.RequestScope;
import io.pdgateway.sim.api.RouteTable;
import io.pdgateway.sim.api.TokenizeEndpoint;
import io.pdgateway.sim.kv.KvPlan;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;

/**
 * vLLM's OpenAI server with P/D disaggregation through {@code kv_transfer_params} (upstream-pd-router.md §1.2):
 * <ul>
 *   <li>prefill role: every finished non-streaming request keeps its KV and answers a top-level
 *       {@code kv_transfer_params} naming this pod's engine id, block ids, host and port;</li>
 *   <li>decode role: a request carrying {@code kv_transfer_params} with {@code do_remote_prefill: true}, or
 *       {@code disagg_prefill_resp} holding such params, fetches the KV from that prefill pod before it is
 *       admitted, and fails with 500 when it cannot; a request with neither is prefilled locally, as vLLM would,
 *       and counted in {@link SimPod#kvMissing()};</li>
 *   <li>{@code /metrics} with vLLM V1's names; errors as {@code {"error": {message, type, param, code}}};</li>
 *   <li>{@code GET /version}: {@code {"version": ...}}, as vLLM's API server answers it.</li>
 * </ul>
 */
public final class VllmPersonality implements EnginePersonality {

    public static final String NAME = "vllm";
    static final String VERSION_PATH = "/version";
    /** The vLLM release whose API the simulator follows; "+sim" (a PEP 440 local label) marks it as simulated. */
    static final String VERSION = "0.11.0+sim";
    static final String KV_FAILURE = "KV transfer failed: ";

    private PodContext pod;
    private VllmKvStore store;
    private VllmKvFetcher fetcher;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public double[] firstTokenBuckets() {
        return VllmMetrics.TTFT_BUCKETS;
    }

    @Override
    public double[] requestPhaseBuckets() {
        return VllmMetrics.REQUEST_LATENCY_BUCKETS;
    }

    @Override
    public void attach(PodContext pod, RouteTable routes) {
        this.pod = pod;
        this.store = new VllmKvStore(pod);
        this.fetcher = new VllmKvFetcher(pod);
        routes.add(HttpMethod.GET, VllmMetrics.PATH, (request, body) -> request.response()
                .putHeader("content-type", PrometheusText.CONTENT_TYPE).end(VllmMetrics.render(pod)));
        routes.add(HttpMethod.GET, VERSION_PATH, (request, body) -> request.response()
                .putHeader("content-type", "application/json")
                .end(JsonCodec.write(JsonCodec.object().put("version", VERSION))));
        VllmKvSideChannel sideChannel = new VllmKvSideChannel(pod, store);
        routes.addPrefix(HttpMethod.GET, VllmKvSideChannel.PREFIX, sideChannel::handle);
        new TokenizeEndpoint(pod, true).register(routes);
    }

    @Override
    public Future<KvPlan> planKv(CompletionRequest request, FaultConfig faults, RequestScope scope) {
        if (pod.config().role() != SimRole.DECODE) {
            return Future.succeededFuture(KvPlan.LOCAL_PREFILL);
        }
        JsonNode params = VllmKvParams.remotePrefill(request.body());
        if (params == null) {
            pod.kvMissing().incrementAndGet();
            return Future.succeededFuture(KvPlan.LOCAL_PREFILL);
        }
        VllmKvParams.Remote remote;
        try {
            remote = VllmKvParams.parse(params);
        } catch (IllegalArgumentException e) {
            return Future.failedFuture(KV_FAILURE + "invalid " + VllmKvParams.FIELD + ": " + e.getMessage());
        }
        if (faults.failKvFetch()) {
            return Future.failedFuture(KV_FAILURE + "cannot fetch KV from prefill pod " + remote.host() + ":"
                    + remote.port() + " (injected failKvFetch fault)");
        }
        pod.stats().kvFetchesInFlight++;
        return fetcher.fetch(remote, request.prompt())
                .transform(done -> {
                    pod.stats().kvFetchesInFlight--;
                    return done.succeeded() ? Future.succeededFuture(KvPlan.REMOTE_KV)
                            : Future.<KvPlan>failedFuture(KV_FAILURE + done.cause().getMessage());
                });
    }

    @Override
    public void completeResponse(CompletionRequest request, ObjectNode response) {
        if (pod.config().role() == SimRole.PREFILL) {
            VllmKvStore.Held held = store.hold(request.prompt());
            response.set(VllmKvParams.FIELD,
                    VllmKvParams.forDecode(pod.engineId(), held.blockIds(), pod.advertisedHost(), pod.port()));
        }
    }

    /** vLLM's ErrorResponse: the type is the name of the error class its server raised for that status. */
    @Override
    public ObjectNode errorBody(int status, String message) {
        ObjectNode body = JsonCodec.object();
        ObjectNode error = body.putObject("error");
        error.put("message", message);
        error.put("type", errorType(status));
        error.putNull("param");
        error.put("code", status);
        return body;
    }

    private static String errorType(int status) {
        return switch (status) {
            case 400 -> "BadRequestError";
            case 401 -> "AuthenticationError";
            case 404 -> "NotFoundError";
            case 429 -> "RateLimitError";
            case 501 -> "NotImplementedError";
            case 503 -> "ServiceUnavailableError";
            default -> status < 500 ? "BadRequestError" : "InternalServerError";
        };
    }
}
