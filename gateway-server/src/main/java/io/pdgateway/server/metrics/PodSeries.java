package io.pdgateway.server.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Gauge series labelled {namespace, pod_name} that follow a changing set of pods: a pod's series appear when it joins
 * the set and go when it leaves, so pods that come and go under autoscaling never pile up on /metrics.
 */
final class PodSeries {
    private final MeterRegistry registry;
    private final Function<String, List<Meter>> register;
    private final Map<String, List<Meter>> series = new ConcurrentHashMap<>();

    /** @param register the meters of one pod, given its id (namespace/name) */
    PodSeries(MeterRegistry registry, Function<String, List<Meter>> register) {
        this.registry = registry;
        this.register = register;
    }

    /** Adds the pod's series now, if it has none. */
    void add(String podId) {
        series.computeIfAbsent(podId, register);
    }

    /** Adds series for pods new to {@code podIds} and removes those of pods no longer in it. */
    void sync(Collection<String> podIds) {
        Set<String> live = new HashSet<>(podIds);
        for (String id : live) {
            series.computeIfAbsent(id, register);
        }
        for (String id : Set.copyOf(series.keySet())) {
            if (!live.contains(id)) {
                series.remove(id).forEach(registry::remove);
            }
        }
    }

    /**
     * A counter of one pod (a monotonic total read from {@code state}, which something else keeps alive: Micrometer
     * holds it weakly) under its {namespace, pod_name} labels.
     */
    static <T> Meter counter(MeterRegistry registry, String name, String help, String podId, T state,
            ToDoubleFunction<T> total) {
        int slash = podId.indexOf('/');
        return FunctionCounter.builder(name, state, total).description(help)
                .tag("namespace", podId.substring(0, slash)).tag("pod_name", podId.substring(slash + 1))
                .register(registry);
    }

    /** A gauge of one pod under the pod's {namespace, pod_name} labels. */
    static Meter gauge(MeterRegistry registry, String name, String help, String podId, DoubleSupplier value) {
        int slash = podId.indexOf('/');
        return Gauge.builder(name, value::getAsDouble).description(help)
                .tag("namespace", podId.substring(0, slash)).tag("pod_name", podId.substring(slash + 1))
                .strongReference(true).register(registry);
    }
}
