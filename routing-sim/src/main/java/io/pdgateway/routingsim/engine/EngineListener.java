package io.pdgateway.routingsim.engine;

/** Hears what happens to one request inside an engine. Called from the engine's own events, in virtual time. */
public interface EngineListener {
    /** The first output token left the engine. */
    void firstToken(SimEngine engine, EngineRequest request, long now);

    /** The last output token left the engine; its KV reservation is already freed. */
    void finished(SimEngine engine, EngineRequest request, long now);

    /** The engine refused the request at submission (it can never fit), as vLLM answers 400. */
    void rejected(SimEngine engine, EngineRequest request, String reason, long now);
}
