package io.pdgateway.core.model;

import java.util.Map;
import java.util.Objects;

/**
 * One routable engine pod as discovery saw it. Immutable as a value (equality is every field discovery set); identity
 * is namespace/name (the spec keys ledgers by it). A class, not a record, only so that it can carry its slot hint.
 */
public final class Pod {
    private final String namespace;
    private final String name;
    private final String model;
    private final String ip;
    private final int port;
    private final int metricPort;
    private final String engine;
    private final PodRole role;
    private final String rolesetName;
    private final String kvConnectorType;
    private final int sglangBootstrapPort;
    private final ModelConfig config;
    private final Map<String, String> labels;
    private final String id;
    private final String address;
    /**
     * The pod's position in the last {@link ModelPods} built over this object ({@link PodSlots}), or -1. A hint, not
     * part of the pod's value: a pod object shared by two snapshots carries the later one's position, so a reader
     * checks that its snapshot has this object at that position and searches when it does not. Plain (not volatile):
     * a stale read only costs that search.
     */
    private int slotHint = -1;

    /** As discovery saw it; {@code id} and {@code address} are derived (whatever is passed is ignored). */
    public Pod(String namespace, String name, String model, String ip, int port, int metricPort, String engine,
            PodRole role, String rolesetName, String kvConnectorType, int sglangBootstrapPort, ModelConfig config,
            Map<String, String> labels, String id, String address) {
        this.namespace = namespace;
        this.name = name;
        this.model = model;
        this.ip = ip;
        this.port = port;
        this.metricPort = metricPort;
        this.engine = engine;
        this.role = role;
        this.rolesetName = rolesetName;
        this.kvConnectorType = kvConnectorType;
        this.sglangBootstrapPort = sglangBootstrapPort;
        this.config = config;
        this.labels = Map.copyOf(labels);
        this.id = namespace + "/" + name;
        this.address = ip + ":" + port;
    }

    public Pod(String namespace, String name, String model, String ip, int port, int metricPort, String engine,
            PodRole role, String rolesetName, String kvConnectorType, int sglangBootstrapPort, ModelConfig config,
            Map<String, String> labels) {
        this(namespace, name, model, ip, port, metricPort, engine, role, rolesetName, kvConnectorType,
                sglangBootstrapPort, config, labels, null, null);
    }

    public String namespace() {
        return namespace;
    }

    public String name() {
        return name;
    }

    /** Value of model.aibrix.ai/name. */
    public String model() {
        return model;
    }

    public String ip() {
        return ip;
    }

    public int port() {
        return port;
    }

    public int metricPort() {
        return metricPort;
    }

    public String engine() {
        return engine;
    }

    public PodRole role() {
        return role;
    }

    /** roleset-name label, or null. */
    public String rolesetName() {
        return rolesetName;
    }

    /** model.aibrix.ai/kv-connector-type label as written, or null. */
    public String kvConnectorType() {
        return kvConnectorType;
    }

    public int sglangBootstrapPort() {
        return sglangBootstrapPort;
    }

    /** The parsed model.aibrix.ai/config annotation, or null when absent or invalid. */
    public ModelConfig config() {
        return config;
    }

    public Map<String, String> labels() {
        return labels;
    }

    /** namespace/name, computed once: it keys every ledger and metric lookup on the routing hot path. */
    public String id() {
        return id;
    }

    /**
     * ip:port the engine serves on, computed once: ledgers and cache views compare it on every decision to tell a pod
     * from an earlier one of the same name, and building it per call cost a string per pod per decision.
     */
    public String address() {
        return address;
    }

    /** See {@link #slotHint}. */
    int slotHint() {
        return slotHint;
    }

    void slotHint(int slot) {
        slotHint = slot;
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

    /** Equal when every field discovery set is equal (the slot hint is not part of the value). */
    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof Pod other && port == other.port && metricPort == other.metricPort
                && sglangBootstrapPort == other.sglangBootstrapPort && role == other.role
                && Objects.equals(namespace, other.namespace) && Objects.equals(name, other.name)
                && Objects.equals(model, other.model) && Objects.equals(ip, other.ip)
                && Objects.equals(engine, other.engine) && Objects.equals(rolesetName, other.rolesetName)
                && Objects.equals(kvConnectorType, other.kvConnectorType) && Objects.equals(config, other.config)
                && labels.equals(other.labels);
    }

    @Override
    public int hashCode() {
        return Objects.hash(namespace, name, model, ip, port, metricPort, engine, role, rolesetName, kvConnectorType,
                sglangBootstrapPort, config, labels);
    }

    @Override
    public String toString() {
        return id() + "@" + address() + "[" + role + (rolesetName == null ? "" : "," + rolesetName) + "]";
    }
}
