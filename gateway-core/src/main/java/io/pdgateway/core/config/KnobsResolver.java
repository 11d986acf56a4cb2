package io.pdgateway.core.config;

import io.pdgateway.core.model.RoutingConfig;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The knobs for a request's profile, computed once per distinct routingConfig and remembered, so the hot path does
 * not re-validate a profile per request and a bad override is reported once, not once per request.
 */
public final class KnobsResolver {
    /** Distinct profiles are few; the bound only keeps churning annotations from growing the map forever. */
    static final int MAX_REMEMBERED = 1024;

    private final PdKnobs defaults;
    private final Consumer<String> warn;
    private final Map<RoutingConfig, PdKnobs> remembered = new ConcurrentHashMap<>();

    public KnobsResolver(PdKnobs defaults, Consumer<String> warn) {
        this.defaults = defaults;
        this.warn = warn;
    }

    public PdKnobs defaults() {
        return defaults;
    }

    public PdKnobs resolve(RoutingConfig config) {
        if (config == null || config.raw().isEmpty()) {
            return defaults;
        }
        PdKnobs known = remembered.get(config);
        if (known != null) {
            return known;
        }
        PdKnobs.Resolved resolved = defaults.overriddenBy(config);
        resolved.warnings().forEach(warn);
        if (remembered.size() >= MAX_REMEMBERED) {
            remembered.clear();
        }
        remembered.put(config, resolved.knobs());
        return resolved.knobs();
    }
}
