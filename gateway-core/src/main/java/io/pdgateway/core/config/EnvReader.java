package io.pdgateway.core.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads knobs from an environment map. A value that breaks its knob's rule keeps the default and records a warning
 * the caller logs, so a typo never stops routing; a fatal knob's bad value stops start-up with a clear message.
 */
public final class EnvReader implements KnobSource {
    private final Map<String, String> env;
    private final List<String> warnings = new ArrayList<>();

    public EnvReader(Map<String, String> env) {
        this.env = env;
    }

    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    @Override
    public <T> T get(Knob<T> knob) {
        String text = env.get(knob.env());
        if (text == null || text.isBlank()) {
            return knob.fallback();
        }
        text = text.trim();
        T value = knob.rule().fromText(text);
        if (value != null) {
            return value;
        }
        String problem = knob.env() + "=" + text + " " + knob.rule().requirement();
        if (knob.fatal()) {
            throw new IllegalArgumentException(problem);
        }
        warnings.add(problem + "; using " + knob.fallback());
        return knob.fallback();
    }
}
