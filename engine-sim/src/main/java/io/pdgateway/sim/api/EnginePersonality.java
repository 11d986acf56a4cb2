package io.pdgateway.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.EngineRegistry;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.PromptTokens;
import io.pdgateway.sim.TextTokens;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.kv.KvPlan;
import io.vertx.core.Future;

/**
 * The seam between the simulator's generic core (HTTP server, OpenAI endpoints, engine loop, faults, request
 * recording) and one engine's wire protocol: its metric names and path, its P/D fields and side channels, its
 * error bodies. One instance per pod; {@link EngineRegistry} maps engine names to constructors.
 * Every method runs on the pod's event loop.
 */
public interface EnginePersonality {

    /** The engine name of {@link SimConfig#engine()}. */
    String name();

    /** Upper bounds of the time-to-first-token histogram, in seconds, as the engine exports it. */
    double[] firstTokenBuckets();

    /** Upper bounds of the per-request phase histograms (queue, prefill, decode, e2e), in seconds. */
    double[] requestPhaseBuckets();

    /** Binds to its pod once the pod's services exist: creates per-pod state and adds engine-specific routes. */
    void attach(PodContext pod, RouteTable routes);

    /**
     * The engine's own generate APIs beside the OpenAI ones (SGLang: {@code /generate}), served by the same
     * completion machinery: validation, faults, the P/D fields, the engine loop.
     */
    default java.util.List<CompletionApi> nativeApis() {
        return java.util.List.of();
    }

    /** Starts what the engine runs beside its HTTP port (SGLang: the prefill's bootstrap server). */
    default Future<Void> start() {
        return Future.succeededFuture();
    }

    default Future<Void> stop() {
        return Future.succeededFuture();
    }

    /** Counts the prompt as this engine does; TensorRT-LLM reads chat prompt_token_ids and reports ids. */
    default PromptTokens prompt(JsonNode body, CompletionApi api, int blockSize, TextTokens text) throws ApiException {
        return api.prompt(body, blockSize, text);
    }

    /** Refuses what this engine refuses beyond the OpenAI checks (its P/D fields, unsupported keys). */
    default void validate(CompletionRequest request) throws ApiException {
    }

    /** SGLang answers a stream's headers as soon as the request is accepted, before its first token. */
    default boolean streamHeadersFirst() {
        return false;
    }

    /** The engine's request id for a request: the base of the response id and the name /abort_request uses. */
    default String requestId(CompletionRequest request, String requestIdHeader) {
        return requestIdHeader;
    }

    /**
     * Reads the request's P/D fields and decides how it joins the engine. A decode pod given a remote prefill
     * fetches the KV here; a failed future becomes a 500 (or a stream error once SGLang's headers went out).
     */
    Future<KvPlan> planKv(CompletionRequest request, FaultConfig faults, RequestScope scope);

    /**
     * Called when the request's last token is out, before its response ends: a prefill hands its KV over here, and
     * the response ends when the future completes (SGLang: once the decode pod took the KV). A failed future
     * answers 500.
     */
    default Future<Void> release(CompletionRequest request, RequestScope scope) {
        return Future.succeededFuture();
    }

    /** Adds the engine's P/D fields to a finished non-streaming response (vLLM: kv_transfer_params). */
    void completeResponse(CompletionRequest request, ObjectNode response);

    /** The engine's JSON error body for {@code status}. */
    ObjectNode errorBody(int status, String message);
}
