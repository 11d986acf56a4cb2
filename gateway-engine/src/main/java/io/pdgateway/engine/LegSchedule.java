package io.pdgateway.engine;

/** How the prefill and decode legs of a PD request are ordered. */
public enum LegSchedule {
    /** Prefill first; its response shapes the decode body (vLLM, TensorRT-LLM context_first). */
    SEQUENTIAL,
    /** Both legs at once; the engines coordinate the KV themselves (SGLang, TensorRT-LLM generation_first). */
    CONCURRENT
}
