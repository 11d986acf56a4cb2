package io.pdgateway.engine;

import io.pdgateway.engine.vllm.VllmAdapter;
import java.util.Map;

/** Engine label → adapter. */
public final class EngineAdapters {
    private static final Map<String, EngineAdapter> ADAPTERS = Map.of(VllmAdapter.ENGINE, new VllmAdapter());

    private EngineAdapters() {}

    /** The adapter for the engine label, or null when this build does not speak that engine's PD protocol. */
    public static EngineAdapter forEngine(String engine) {
        return engine == null ? null : ADAPTERS.get(engine);
    }

    /** Default metrics path for an engine; TensorRT-LLM serves Prometheus under /prometheus/metrics (reference §4). */
    public static String metricsPath(String engine) {
        EngineAdapter adapter = forEngine(engine);
        if (adapter != null) {
            return adapter.metricsPath();
        }
        return "trtllm".equals(engine) ? "/prometheus/metrics" : "/metrics";
    }
}
