package io.pdgateway.core.config;

import java.util.List;
import java.util.Optional;

/** AIBRIX_TRT_SCHEDULE_STYLE: whether TensorRT-LLM's generation leg waits for the context leg. */
public enum TrtScheduleStyle {
    /** Spec default: the context (prefill) response first, then the generation request. */
    CONTEXT_FIRST("context_first"),
    /** Both legs at once, from the context worker's /server_info metadata. */
    GENERATION_FIRST("generation_first");

    private final String specName;

    TrtScheduleStyle(String specName) {
        this.specName = specName;
    }

    public static Optional<TrtScheduleStyle> named(String name) {
        for (TrtScheduleStyle style : values()) {
            if (style.specName.equals(name)) {
                return Optional.of(style);
            }
        }
        return Optional.empty();
    }

    public static List<String> specNames() {
        return List.of(CONTEXT_FIRST.specName, GENERATION_FIRST.specName);
    }

    @Override
    public String toString() {
        return specName;
    }
}
