package io.pdgateway.engine;

import io.pdgateway.engine.trtllm.TrtServerInfo;

/**
 * Everything engine-specific about a PD request, as pure transforms: how the legs are scheduled, what each leg's body
 * is, what the decode leg needs from the prefill's answer, and how a pod is asked to drop a request. One
 * implementation per engine; implementations are thread-safe (one instance serves every event loop).
 */
public interface EngineAdapter {
    /** The model.aibrix.ai/engine label value. */
    String engine();

    /** Path of the engine's Prometheus endpoint. */
    String metricsPath();

    /**
     * Rejects, before any pod is selected, a client body this engine's PD protocol cannot carry (SGLang: invalid JSON,
     * a non-object, a controlled top-level key given twice). The message becomes the client's 400.
     */
    default void validate(byte[] body) throws EngineProtocolException {}

    /**
     * Path of the metadata the plan needs from the prefill pod before either leg is sent (TensorRT-LLM
     * generation_first: the CTX worker's /server_info), or null when the plan needs none.
     */
    default String serverInfoPath() {
        return null;
    }

    /** Reads the document at {@link #serverInfoPath()}; the message of a failure says what is missing. */
    default TrtServerInfo parseServerInfo(byte[] body) throws EngineProtocolException {
        throw new EngineProtocolException(engine() + " reads no server info");
    }

    /** The legs of one request: schedule, prefill body, the decode body when it does not wait for the prefill. */
    LegPlan plan(LegRequest request) throws EngineProtocolException;

    /** The decode body of a {@link LegSchedule#SEQUENTIAL} plan, given the prefill pod's response body. */
    byte[] decodeBody(LegRequest request, LegPlan plan, byte[] prefillResponse) throws EngineProtocolException;
}
