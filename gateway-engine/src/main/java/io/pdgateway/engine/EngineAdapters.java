package io.pdgateway.engine;

import io.pdgateway.core.config.EngineSettings;
import io.pdgateway.core.config.TrtScheduleStyle;
import io.pdgateway.engine.sglang.SglangAdapter;
import io.pdgateway.engine.trtllm.TrtRequestIds;
import io.pdgateway.engine.trtllm.TrtllmAdapter;
import io.pdgateway.engine.vllm.VllmAdapter;
import java.time.InstantSource;
import java.util.Map;
import java.util.random.RandomGenerator;

/** Engine label → adapter, configured once per gateway process. Thread-safe. */
public final class EngineAdapters {
    private final Map<String, EngineAdapter> adapters;

    private EngineAdapters(Map<String, EngineAdapter> adapters) {
        this.adapters = Map.copyOf(adapters);
    }

    /**
     * The adapters of every engine this build speaks.
     *
     * @param rooms draws SGLang bootstrap rooms; they must differ across gateway replicas sharing prefill pods, so
     *     production passes a generator seeded from a secure source
     * @param clock the time in TensorRT-LLM's Snowflake ids
     */
    public static EngineAdapters create(EngineSettings settings, RandomGenerator rooms, InstantSource clock) {
        boolean generationFirst = settings.trtScheduleStyle() == TrtScheduleStyle.GENERATION_FIRST;
        return new EngineAdapters(Map.of(
                VllmAdapter.ENGINE, new VllmAdapter(),
                SglangAdapter.ENGINE, new SglangAdapter(rooms),
                TrtllmAdapter.ENGINE, new TrtllmAdapter(generationFirst,
                        new TrtRequestIds(settings.trtMachineId(), clock))));
    }

    /** The adapter for the engine label, or null when this build does not speak that engine's PD protocol. */
    public EngineAdapter forEngine(String engine) {
        return engine == null ? null : adapters.get(engine);
    }

    /**
     * The metric names of the pod's engine; a pod labelled with an engine this build does not know is scraped as vLLM
     * (the spec's default engine), so its metrics still count.
     */
    public EngineMetricNames metricsOf(String engine) {
        EngineAdapter adapter = forEngine(engine);
        return adapter == null ? EngineMetricNames.VLLM : adapter.metrics();
    }
}
