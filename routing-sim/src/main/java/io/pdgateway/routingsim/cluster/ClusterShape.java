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
 */
public record ClusterShape(String model, TimingProfile timing, Map<String, String> gatewayEnv, List<PodGroup> groups,
        String source, int gatewayReplicas) {

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

    /** The same shape behind {@code replicas} gateway replicas. */
    public ClusterShape withGatewayReplicas(int replicas) {
        return replicas == gatewayReplicas ? this
                : new ClusterShape(model, timing, gatewayEnv, groups, source, replicas);
    }

    /** The same shape with {@code overrides} set in the gateway environment. */
    public ClusterShape withGatewayEnv(Map<String, String> overrides) {
        if (overrides.isEmpty()) {
            return this;
        }
        Map<String, String> env = new LinkedHashMap<>(gatewayEnv);
        env.putAll(overrides);
        return new ClusterShape(model, timing, env, groups, source + " " + overrides, gatewayReplicas);
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
                + (gatewayReplicas > 1 ? ", " + gatewayReplicas + " gateway replicas" : "");
    }
}
