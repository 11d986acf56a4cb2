package io.pdgateway.engine;

/**
 * Everything engine-specific about a PD request, as pure transforms: which leg goes first, what each leg's body is,
 * and what the decode leg needs from the prefill's answer. One implementation per engine.
 */
public interface EngineAdapter {
    /** The model.aibrix.ai/engine label value. */
    String engine();

    LegSchedule schedule();

    /** Path of the engine's Prometheus endpoint. */
    String metricsPath();

    /** The body sent to the prefill pod. */
    byte[] prefillBody(LegRequest request) throws EngineProtocolException;

    /** The body sent to the decode pod, given the prefill pod's response body (empty for concurrent schedules). */
    byte[] decodeBody(LegRequest request, byte[] prefillResponse) throws EngineProtocolException;
}
