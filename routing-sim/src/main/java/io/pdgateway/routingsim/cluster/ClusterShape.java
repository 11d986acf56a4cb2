package io.pdgateway.routingsim.cluster;

import io.pdgateway.sim.TimingProfile;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a simulated cluster looks like: the model, the engine timing profile every pod runs with, the gateway's
 * environment (the spec's AIBRIX_* variables, shared by every policy), and the pod groups.
 *
 * @param source where the shape was read from, for reports
 * @param gatewayReplicas how many gateway replicas share the traffic (each routing with its own session; running
 *     counts and the decode ledger shared between them as through Redis)
 * @param kvEventDelayNanos when at least 0, the engines publish KV-cache events (stored and evicted blocks) that reach
 *     the gateway this long after the engine's step, and the gateway's cache views follow them (event-fed, as the
 *     server does for pods that publish); negative: no events, the gateway-side model alone
 */
public record ClusterShape(String model, TimingProfile timing, Map<String, String> gatewayEnv, List<PodGroup> groups,
        String source, int gatewayReplicas, long kvEventDelayNanos) {

    public ClusterShape {
        gatewayEnv = Map.copyOf(gatewayEnv);
        groups = List.copyOf(groups);
        if (groups.stream().mapToInt(PodGroup::pods).sum() == 0) {
            throw new IllegalArgumentException("cluster shape " + source + " has no pods");
        }
        if (gatewayReplicas < 1) {
            throw new IllegalArgumentException("cluster shape " + source + ": gatewayReplicas must be at least 1");
        }
    }

    /** One gateway replica. */
    public ClusterShape(String model, TimingProfile timing, Map<String, String> gatewayEnv, List<PodGroup> groups,
            String source) {
        this(model, timing, gatewayEnv, groups, source, 1);
    }

    /** No KV events. */
    public ClusterShape(String model, TimingProfile timing, Map<String, String> gatewayEnv, List<PodGroup> groups,
            String source, int gatewayReplicas) {
        this(model, timing, gatewayEnv, groups, source, gatewayReplicas, -1);
    }

    /** The same shape behind {@code replicas} gateway replicas. */
    public ClusterShape withGatewayReplicas(int replicas) {
        return replicas == gatewayReplicas ? this
                : new ClusterShape(model, timing, gatewayEnv, groups, source, replicas, kvEventDelayNanos);
    }

    /** The same shape with engines publishing KV events that reach the gateway after {@code millis}. */
    public ClusterShape withKvEventDelayMillis(double millis) {
        if (!(millis >= 0) || Double.isInfinite(millis)) {
            throw new IllegalArgumentException("the KV-event delay must be a finite number of ms >= 0, got " + millis);
        }
        return new ClusterShape(model, timing, gatewayEnv, groups, source, gatewayReplicas,
                Math.round(millis * 1_000_000));
    }

    /** Whether the engines publish KV events the gateway follows. */
    public boolean kvEvents() {
        return kvEventDelayNanos >= 0;
    }

    /** The same shape with {@code overrides} set in the gateway environment. */
    public ClusterShape withGatewayEnv(Map<String, String> overrides) {
        if (overrides.isEmpty()) {
            return this;
        }
        Map<String, String> env = new LinkedHashMap<>(gatewayEnv);
        env.putAll(overrides);
        return new ClusterShape(model, timing, env, groups, source + " " + overrides, gatewayReplicas,
                kvEventDelayNanos);
    }

    public int podCount() {
        return groups.stream().mapToInt(PodGroup::pods).sum();
    }

    /** One line for reports: "4×(1P+1D) short, 1 standard std, llama3-8b-h100". */
    public String summary() {
        StringBuilder s = new StringBuilder();
        for (PodGroup g : groups) {
            if (s.length() > 0) {
                s.append(", ");
            }
            s.append(g.standard() ? g.replicas() + " standard " : g.replicas() + "x(" + g.prefill() + "P+" + g.decode()
                    + "D) ").append(g.name());
        }
        return s + " = " + podCount() + " pods, " + timing.name()
                + (gatewayReplicas > 1 ? ", " + gatewayReplicas + " gateway replicas" : "")
                + (kvEvents() ? String.format(java.util.Locale.ROOT, ", KV events after %.1f ms",
                        kvEventDelayNanos / 1e6) : "");
    }
}
