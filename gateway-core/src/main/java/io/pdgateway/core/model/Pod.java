package io.pdgateway.core.model;

import java.util.Map;

/**
 * One routable engine pod as discovery saw it. Immutable; identity is namespace/name (the spec keys ledgers by it).
 *
 * @param model value of model.aibrix.ai/name
 * @param rolesetName roleset-name label, or null
 * @param kvConnectorType model.aibrix.ai/kv-connector-type label as written, or null
 * @param config the parsed model.aibrix.ai/config annotation, or null when absent or invalid
 * @param id namespace/name, computed once: it keys every ledger and metric lookup on the routing hot path
 * @param address ip:port the engine serves on, computed once: ledgers and cache views compare it on every decision to
 *     tell a pod from an earlier one of the same name, and building it per call cost a string per pod per decision
 */
public record Pod(
        String namespace,
        String name,
        String model,
        String ip,
        int port,
        int metricPort,
        String engine,
        PodRole role,
        String rolesetName,
        String kvConnectorType,
        int sglangBootstrapPort,
        ModelConfig config,
        Map<String, String> labels,
        String id,
        String address) {

    public Pod {
        labels = Map.copyOf(labels);
        id = namespace + "/" + name;
        address = ip + ":" + port;
    }

    public Pod(String namespace, String name, String model, String ip, int port, int metricPort, String engine,
            PodRole role, String rolesetName, String kvConnectorType, int sglangBootstrapPort, ModelConfig config,
            Map<String, String> labels) {
        this(namespace, name, model, ip, port, metricPort, engine, role, rolesetName, kvConnectorType,
                sglangBootstrapPort, config, labels, null, null);
    }

    /** The routingConfig of this pod's own profile for the request's config-profile (spec: bucketing is per pod). */
    public RoutingConfig routingConfig(String requestedProfile) {
        if (config == null) {
            return RoutingConfig.EMPTY;
        }
        Profile profile = config.resolve(requestedProfile);
        return profile == null ? RoutingConfig.EMPTY : profile.routingConfig();
    }

    /**
     * A standard (combined) pod: its resolved profile says combined:true and its role is neither prefill nor decode.
     * It needs no roleset-name (design.md §3; the spec's example has neither label).
     */
    public boolean isStandard(String requestedProfile) {
        return role == PodRole.OTHER && routingConfig(requestedProfile).combined();
    }

    @Override
    public String toString() {
        return id() + "@" + address() + "[" + role + (rolesetName == null ? "" : "," + rolesetName) + "]";
    }
}
