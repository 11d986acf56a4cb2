package io.pdgateway.routingsim.engine;

/** What a simulated pod does with a request, as engine-sim's SimRole. */
public enum EngineRole {
    /** Computes the prompt, answers one token, holds the KV until a decode pod has fetched it. */
    PREFILL,
    /** Fetches the KV a prefill pod computed, then generates. */
    DECODE,
    /** A standard pod: prefill and decode in the same engine, in mixed steps. */
    STANDARD
}
