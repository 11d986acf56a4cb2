package io.pdgateway.engine;

/**
 * Everything engine-specific about a PD request, as pure transforms: which metrics the engine exports and where, what
 * a client body must look like, how the legs are scheduled, what each leg's body is, what the decode leg needs from the
 * prefill's answer, and how a pod is asked to drop a request. One implementation per engine; implementations are
 * thread-safe (one instance serves every event loop).
 */
public interface EngineAdapter {
    /** The model.aibrix.ai/engine label value. */
    String engine();

    /** The engine's Prometheus endpoint and the names of the signals routing reads from it. */
    EngineMetricNames metrics();

    /**
     * Checks, before any pod is selected, that this engine's PD protocol can carry the client's body (SGLang: a JSON
     * object with each controlled top-level key at most once), and returns what the plan needs of it, read once
     * (handed back in {@link LegRequest#admitted()}), or null when the plan needs nothing more. A refusal's message
     * becomes the client's 400.
     */
    default Object admit(TopLevelJson body) throws EngineProtocolException {
        return null;
    }

    /** What the plan needs from the prefill pod before either leg is sent, or null when it needs nothing. */
    default PodPrerequisite prerequisite() {
        return null;
    }

    /** What the engine's {@code /tokenize} endpoint takes, if it has one. */
    default TokenizeSupport tokenize() {
        return TokenizeSupport.NONE;
    }

    /** The legs of one request: schedule, prefill body, the decode body when it does not wait for the prefill. */
    LegPlan plan(LegRequest request) throws EngineProtocolException;

    /** The decode body of a {@link LegSchedule#SEQUENTIAL} plan, given the prefill pod's response body. */
    byte[] decodeBody(LegRequest request, LegPlan plan, byte[] prefillResponse) throws EngineProtocolException;
}
