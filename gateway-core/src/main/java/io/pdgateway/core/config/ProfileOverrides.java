package io.pdgateway.core.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads PD knobs from a profile's routingConfig (spec: "Each one overrides the matching gateway environment variable
 * for that profile only; unset fields keep the environment default"). A field that breaks its rule keeps the
 * environment's value and records a warning; knobs a profile cannot set always keep it.
 */
final class ProfileOverrides implements KnobSource {
    private final Map<String, Object> raw;
    private final PdKnobs base;
    private final List<String> warnings = new ArrayList<>();

    ProfileOverrides(Map<String, Object> raw, PdKnobs base) {
        this.raw = raw;
        this.base = base;
    }

    List<String> warnings() {
        return List.copyOf(warnings);
    }

    @Override
    public <T> T get(Knob<T> knob) {
        T current = knob.inKnobs().apply(base);
        if (knob.profileKey() == null) {
            return current;
        }
        Object json = raw.get(knob.profileKey());
        if (json == null) {
            return current;
        }
        T value = knob.rule().fromJson(json);
        if (value != null) {
            return value;
        }
        warnings.add("routingConfig." + knob.profileKey() + "=" + json + " " + knob.rule().requirement() + "; using "
                + current);
        return current;
    }
}
