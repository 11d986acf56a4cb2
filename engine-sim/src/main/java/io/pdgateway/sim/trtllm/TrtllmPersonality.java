package io.pdgateway.sim.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.PromptTokens;
import io.pdgateway.sim.TextTokens;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.pdgateway.sim.api.ApiException;
import io.pdgateway.sim.api.ChatApi;
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
import io.pdgateway.sim.kv.KvPlan;
import io.pdgateway.sim.kv.KvRendezvous;
import io.pdgateway.sim.kv.KvRendezvousFetcher;
import io.pdgateway.sim.vllm.VllmMetrics;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * trtllm-serve's OpenAI server with disaggregated serving through {@code disaggregated_params}
 * (upstream-pd-router.md §1.4, spec "TensorRT-LLM Parallel Scheduling"):
 * <ul>
 *   <li>a context worker (prefill role) given {@code request_type: context_only} and a global
 *       {@code disagg_request_id} (≥ 2^42) prefills, keeps the KV for the generation worker and answers one token,
 *       {@code choices[0].disaggregated_params} (its own {@code ctx_request_id}, first token, endpoint) and the
 *       prompt's {@code prompt_token_ids};</li>
 *   <li>with {@code schedule_style: 1} (generation_first) the context worker answers only once the generation worker
 *       took the KV, and needs the Python KV-cache transceiver;</li>
 *   <li>a generation worker (decode role) given {@code generation_only} fetches the KV from {@code ctx_info_endpoint}
 *       (matching {@code disagg_request_id} and {@code ctx_request_id}) and fails (500) when it cannot; without
 *       params it computes the prompt itself, counted in {@link SimPod#kvMissing()};</li>
 *   <li>chat requests may carry {@code prompt_token_ids}, which then are the prompt; {@code max_completion_tokens}
 *       is refused (400), as TensorRT-LLM refuses it;</li>
 *   <li>{@code GET /server_info} reports {@code disaggregated_params} (endpoint and DP rank) with the Python
 *       transceiver and an empty object with the C++ one; {@code GET /prometheus/metrics} with {@code trtllm_}
 *       names.</li>
 * </ul>
 */
public final class TrtllmPersonality implements EnginePersonality {

    public static final String NAME = "trtllm";
    static final String SERVER_INFO_PATH = "/server_info";
    static final String PARAMS = "disaggregated_params";
    /** TensorRT-LLM's smallest global disagg id; smaller ones are local to one worker. */
    static final long MIN_GLOBAL_ID = 1L << 42;
    /**
     * How long KV waits for its taker, and a taker for its KV: cache_transceiver_config.kv_transfer_timeout_ms has no
     * default in what we read, so the simulator uses SGLang's 300 s.
     */
    static final double KV_TRANSFER_TIMEOUT_MILLIS = 300_000;

    private PodContext pod;
    private KvRendezvous rendezvous;
    private KvRendezvousFetcher fetcher;
    private long nextCtxRequestId = 1;
    /** The ctx_request_id a context request got in release(), for completeResponse() to report. */
    private final Map<CompletionRequest, Long> ctxRequestIds = new IdentityHashMap<>();

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
        this.rendezvous = new KvRendezvous(pod, KV_TRANSFER_TIMEOUT_MILLIS, KV_TRANSFER_TIMEOUT_MILLIS);
        this.fetcher = new KvRendezvousFetcher(pod);
        routes.add(HttpMethod.GET, TrtllmMetrics.PATH, (request, body) -> request.response()
                .putHeader("content-type", PrometheusText.CONTENT_TYPE).end(TrtllmMetrics.render(pod)));
        routes.add(HttpMethod.GET, SERVER_INFO_PATH, (request, body) -> request.response()
                .putHeader("content-type", CompletionExchange.JSON_CONTENT_TYPE).end(JsonCodec.write(serverInfo())));
        routes.addPrefix(HttpMethod.GET, KvRendezvous.PREFIX, rendezvous::handle);
    }

    private ObjectNode serverInfo() {
        ObjectNode info = JsonCodec.object();
        info.put("version", "sim");
        ObjectNode params = info.putObject(PARAMS);
        if (pod.config().trtPythonTransceiver()) {
            params.put("ctx_info_endpoint", endpoint());
            params.put("ctx_dp_rank", 0);
        }
        return info;
    }

    private String endpoint() {
        return "tcp://" + pod.advertisedHost() + ":" + pod.port();
    }

    /** Chat prompt_token_ids are the prompt; text is read as token ids, which the context worker reports back. */
    @Override
    public PromptTokens prompt(JsonNode body, CompletionApi api, int blockSize, TextTokens text)
            throws ApiException {
        JsonNode ids = body.get("prompt_token_ids");
        if (ChatApi.PATH.equals(api.path()) && ids != null && !ids.isNull()) {
            if (!ids.isArray() || ids.isEmpty()) {
                throw ApiException.badRequest("prompt_token_ids must be a non-empty list of token ids");
            }
            long[] tokens = new long[ids.size()];
            for (int i = 0; i < tokens.length; i++) {
                if (!ids.get(i).isIntegralNumber()) {
                    throw ApiException.badRequest("prompt_token_ids must hold integers, got " + ids.get(i));
                }
                tokens[i] = ids.get(i).asLong();
            }
            return PromptTokens.ofIds(tokens, blockSize);
        }
        return api.prompt(body, blockSize, TextTokens.PSEUDO_IDS);
    }

    @Override
    public void validate(CompletionRequest request) throws ApiException {
        if (request.body().has("max_completion_tokens")) {
            throw ApiException.badRequest("max_completion_tokens is not supported; use max_tokens");
        }
        TrtDisaggParams params = TrtDisaggParams.read(request.body().get(PARAMS));
        if (params == null) {
            return;
        }
        String expected = switch (pod.config().role()) {
            case PREFILL -> TrtDisaggParams.CONTEXT_ONLY;
            case DECODE -> TrtDisaggParams.GENERATION_ONLY;
            case COMBINED -> throw ApiException.badRequest("this worker does not serve disaggregated requests");
        };
        if (!expected.equals(params.requestType())) {
            throw ApiException.badRequest("a " + pod.config().role().label() + " worker needs request_type " + expected
                    + ", got " + params.requestType());
        }
        if (params.generationFirst() && !pod.config().trtPythonTransceiver()) {
            throw ApiException.badRequest("schedule_style generation_first needs the Python KV-cache transceiver");
        }
    }

    @Override
    public Future<KvPlan> planKv(CompletionRequest request, FaultConfig faults, RequestScope scope) {
        if (pod.config().role() != SimRole.DECODE) {
            return Future.succeededFuture(KvPlan.LOCAL_PREFILL);
        }
        TrtDisaggParams params = paramsOf(request);
        if (params == null) {
            pod.kvMissing().incrementAndGet();
            return Future.succeededFuture(KvPlan.LOCAL_PREFILL);
        }
        URI endpoint = URI.create(params.ctxInfoEndpoint());
        return fetcher.plan(endpoint.getHost(), endpoint.getPort(), Long.toString(params.disaggRequestId()),
                params.ctxRequestId(), request.prompt(), KV_TRANSFER_TIMEOUT_MILLIS, faults, scope);
    }

    /**
     * A context request hands its KV over: context_first keeps it for a generation request that comes later and
     * answers at once; generation_first answers once the generation worker took it.
     */
    @Override
    public Future<Void> release(CompletionRequest request, RequestScope scope) {
        TrtDisaggParams params = paramsOf(request);
        if (pod.config().role() != SimRole.PREFILL || params == null) {
            return Future.succeededFuture();
        }
        long ctxRequestId = params.generationFirst() ? params.disaggRequestId() : nextCtxRequestId++;
        ctxRequestIds.put(request, ctxRequestId);
        scope.onEnd(() -> ctxRequestIds.remove(request));
        String key = Long.toString(params.disaggRequestId());
        if (params.generationFirst()) {
            return rendezvous.deposit(key, ctxRequestId, request.prompt(), scope)
                    .recover(e -> Future.failedFuture(KvRendezvousFetcher.KV_FAILURE + e.getMessage()));
        }
        // Outlives this request: the generation request arrives only after this answer.
        rendezvous.deposit(key, ctxRequestId, request.prompt(), action -> { });
        return Future.succeededFuture();
    }

    @Override
    public void completeResponse(CompletionRequest request, ObjectNode response) {
        TrtDisaggParams params = paramsOf(request);
        Long ctxRequestId = ctxRequestIds.remove(request);
        if (params == null || ctxRequestId == null) {
            return;
        }
        ObjectNode out = JsonCodec.object();
        out.put("request_type", TrtDisaggParams.CONTEXT_ONLY);
        out.putArray("first_gen_tokens").add(Math.floorMod(pod.text().token(request.prompt(), 0).hashCode(),
                PromptTokens.VOCAB));
        out.put("ctx_request_id", ctxRequestId);
        out.put("encoded_opaque_state", Base64.getEncoder()
                .encodeToString(("sim:" + pod.engineId()).getBytes(StandardCharsets.UTF_8)));
        out.putNull("draft_tokens");
        out.put("disagg_request_id", params.disaggRequestId());
        out.put("ctx_dp_rank", 0);
        out.put("ctx_info_endpoint", endpoint());
        JsonNode choices = response.get("choices");
        if (choices != null && choices.isArray() && !choices.isEmpty()) {
            ((ObjectNode) choices.get(0)).set(PARAMS, out);
        }
        long[] ids = request.prompt().ids();
        if (ids != null) {
            ArrayNode array = response.putArray("prompt_token_ids");
            for (long id : ids) {
                array.add(id);
            }
        }
    }

    private static TrtDisaggParams paramsOf(CompletionRequest request) {
        try {
            return TrtDisaggParams.read(request.body().get(PARAMS));
        } catch (ApiException e) {
            throw new IllegalStateException("validated before", e);
        }
    }

    /** trtllm-serve's ErrorResponse: {object, message, type, param, code}. */
    @Override
    public ObjectNode errorBody(int status, String message) {
        return ObjectErrorBody.of(status, message);
    }
}
