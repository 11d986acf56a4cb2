package io.pdgateway.sim;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;

/**
 * The seam between the simulator's generic core (HTTP server, OpenAI endpoints, engine loop, faults, request
 * recording) and one engine's wire protocol: its metric names and path, its P/D fields and side channels, its
 * error bodies. One instance per pod; {@link EngineRegistry} maps engine names to constructors.
 * Every method runs on the pod's event loop.
 */
interface EnginePersonality {

    /** The engine name of {@link SimConfig#engine()}. */
    String name();

    /** Upper bounds of the time-to-first-token histogram, in seconds, as the engine exports it. */
    double[] firstTokenBuckets();

    /** Upper bounds of the per-request phase histograms (queue, prefill, decode, e2e), in seconds. */
    double[] requestPhaseBuckets();

    /** Binds to its pod once the pod's services exist: creates per-pod state and adds engine-specific routes. */
    void attach(PodContext pod, RouteTable routes);

    /**
     * Reads the request's P/D fields and decides how it joins the engine. A decode pod given a remote prefill
     * fetches the KV here; a failed future becomes a 500 before any response header.
     */
    Future<KvPlan> planKv(CompletionRequest request, FaultConfig faults);

    /** Adds the engine's P/D fields to a finished non-streaming response (vLLM: kv_transfer_params). */
    void completeResponse(CompletionRequest request, ObjectNode response);

    /** The engine's JSON error body for {@code status}. */
    ObjectNode errorBody(int status, String message);
}
