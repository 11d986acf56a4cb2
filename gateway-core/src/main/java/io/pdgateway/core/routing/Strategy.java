package io.pdgateway.core.routing;

import io.pdgateway.core.routing.pick.LeastRunningPodPicker;
import io.pdgateway.core.routing.pick.PrefixCachePodPicker;
import io.pdgateway.core.routing.pick.RandomPodPicker;
import io.pdgateway.core.routing.pick.SessionAffinityPodPicker;
import io.pdgateway.core.spec.SpecNamed;
import io.pdgateway.core.spec.SpecStrategies;
import java.util.List;
import java.util.Optional;

/**
 * The routing strategies a request, a profile or ROUTING_ALGORITHM can name. {@link #PD} runs the spec's cascade; the
 * others pick one pod that serves the whole request. The spec's names are the wire and config spelling (exact, as
 * upstream matches them); nothing outside this type compares them.
 */
public enum Strategy implements SpecNamed {
    PD(SpecStrategies.PD, null),
    RANDOM(SpecStrategies.RANDOM, new RandomPodPicker()),
    LEAST_REQUEST(SpecStrategies.LEAST_REQUEST, new LeastRunningPodPicker()),
    PREFIX_CACHE(SpecStrategies.PREFIX_CACHE, new PrefixCachePodPicker()),
    SESSION_AFFINITY(SpecStrategies.SESSION_AFFINITY, new SessionAffinityPodPicker());

    /** design.md §2: ROUTING_ALGORITHM defaults to random. */
    public static final Strategy DEFAULT = RANDOM;

    private final String specName;
    private final PodPicker picker;

    Strategy(String specName, PodPicker picker) {
        this.specName = specName;
        this.picker = picker;
    }

    /** The strategy with exactly this name; empty for anything else. */
    public static Optional<Strategy> named(String name) {
        return SpecNamed.find(values(), name);
    }

    public static List<String> specNames() {
        return SpecNamed.names(values());
    }

    @Override
    public String specName() {
        return specName;
    }

    public boolean isPd() {
        return this == PD;
    }

    /** The pod picker of a non-PD strategy; PD has none (it runs the cascade). */
    public PodPicker picker() {
        if (picker == null) {
            throw new IllegalStateException("pd runs the cascade, not a single-pod picker");
        }
        return picker;
    }

    /** The strategy itself looks the prompt up in the prefix cache view (PD: its prefill policy decides). */
    public boolean readsPrefixCache() {
        return this == PREFIX_CACHE;
    }

    @Override
    public String toString() {
        return specName;
    }
}
