package io.pdgateway.sim;

import io.pdgateway.sim.api.EnginePersonality;
import io.pdgateway.sim.sglang.SglangPersonality;
import io.pdgateway.sim.trtllm.TrtllmPersonality;
import io.pdgateway.sim.vllm.VllmPersonality;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Engine name → personality constructor. Adding an engine (sglang, trtllm) means adding one entry here. */
public final class EngineRegistry {

    private static final Map<String, Supplier<EnginePersonality>> ENGINES = Map.of(
            VllmPersonality.NAME, VllmPersonality::new,
            SglangPersonality.NAME, SglangPersonality::new,
            TrtllmPersonality.NAME, TrtllmPersonality::new);

    private EngineRegistry() {
    }

    /** The supported engine names, sorted. */
    static List<String> names() {
        return ENGINES.keySet().stream().sorted().toList();
    }

    static void requireSupported(String name) {
        if (!ENGINES.containsKey(name)) {
            throw new IllegalArgumentException(
                    "unknown engine '" + name + "', supported: " + String.join(", ", names()));
        }
    }

    static EnginePersonality create(String name) {
        requireSupported(name);
        return ENGINES.get(name).get();
    }
}
