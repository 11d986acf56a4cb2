package io.pdgateway.core.config;

import io.pdgateway.core.spec.SpecNamed;
import java.util.List;
import java.util.Optional;

/** AIBRIX_TRT_SCHEDULE_STYLE: whether TensorRT-LLM's generation leg waits for the context leg. */
public enum TrtScheduleStyle implements SpecNamed {
    /** Spec default: the context (prefill) response first, then the generation request. */
    CONTEXT_FIRST("context_first"),
    /** Both legs at once, from the context worker's /server_info metadata. */
    GENERATION_FIRST("generation_first");

    private final String specName;

    TrtScheduleStyle(String specName) {
        this.specName = specName;
    }

    public static Optional<TrtScheduleStyle> named(String name) {
        return SpecNamed.find(values(), name);
    }

    public static List<String> specNames() {
        return SpecNamed.names(values());
    }

    @Override
    public String specName() {
        return specName;
    }

    @Override
    public String toString() {
        return specName;
    }
}
