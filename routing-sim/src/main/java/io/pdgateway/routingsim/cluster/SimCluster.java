package io.pdgateway.routingsim.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.core.spec.SpecStrategies;
import io.pdgateway.routingsim.engine.EngineRole;
import io.pdgateway.routingsim.engine.SimEngine;
import io.pdgateway.routingsim.event.EventQueue;
import io.pdgateway.core.model.PodObject;
import io.pdgateway.core.model.PodObjectReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run's cluster: the pods as the gateway's discovery sees them (built from labels and the config annotation by
 * the gateway's own {@link PodObjectReader}) and one {@link SimEngine} behind each. Pods are named
 * {@code <group>-<i>-prefill-<j>} / {@code <group>-<i>-decode-<j>} in roleset {@code <group>-<i>}, and
 * {@code <group>-<i>} for standard pods.
 */
public final class SimCluster {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String NAMESPACE = "default";
    /** Discovery counts a pod as routable only once it has an IP; nothing ever connects to it here. */
    static final String POD_IP = "10.0.0.1";

    private final EventQueue queue;
    private final ModelPods model;
    private final Map<Pod, SimEngine> engines;
    private final List<SimEngine> ordered;

    private SimCluster(EventQueue queue, ModelPods model, Map<Pod, SimEngine> engines, List<SimEngine> ordered) {
        this.queue = queue;
        this.model = model;
        this.engines = engines;
        this.ordered = ordered;
    }

    /**
     * @param scrapeIntervalNanos AIBRIX_POD_METRIC_REFRESH_INTERVAL_MS: every pod is scraped in the same periodic
     *     round, as the gateway's scraper does
     */
    public static SimCluster build(ClusterShape shape, EventQueue queue, long scrapeIntervalNanos) {
        List<Pod> pods = new ArrayList<>();
        List<EngineRole> roles = new ArrayList<>();
        for (PodGroup group : shape.groups()) {
            for (int i = 0; i < group.replicas(); i++) {
                if (group.standard()) {
                    pods.add(pod(shape, group, group.name() + "-" + i, null, null));
                    roles.add(EngineRole.STANDARD);
                    continue;
                }
                String roleset = group.name() + "-" + i;
                for (int j = 0; j < group.prefill(); j++) {
                    pods.add(pod(shape, group, roleset + "-prefill-" + j, SpecLabels.ROLE_PREFILL, roleset));
                    roles.add(EngineRole.PREFILL);
                }
                for (int j = 0; j < group.decode(); j++) {
                    pods.add(pod(shape, group, roleset + "-decode-" + j, SpecLabels.ROLE_DECODE, roleset));
                    roles.add(EngineRole.DECODE);
                }
            }
        }
        Map<Pod, SimEngine> engines = new IdentityHashMap<>();
        for (int i = 0; i < pods.size(); i++) {
            engines.put(pods.get(i), new SimEngine(pods.get(i), roles.get(i), shape.timing(), queue,
                    scrapeIntervalNanos, 0));
        }
        ModelPods model = ModelPods.of(shape.model(), pods);
        List<SimEngine> ordered = new ArrayList<>();
        for (Pod pod : model.pods()) {
            ordered.add(engines.get(pod));
        }
        return new SimCluster(queue, model, engines, Collections.unmodifiableList(ordered));
    }

    /**
     * The {@code model.aibrix.ai/config} annotation of a group's pods: the pd strategy, the group's routingConfig, its
     * bucket bounds and, for standard pods, {@code combined}. Public so a loopback run can label real pods the same way.
     */
    public static String configAnnotation(PodGroup group) {
        Map<String, Object> routingConfig = new LinkedHashMap<>(group.routingConfig());
        if (group.standard()) {
            routingConfig.put("combined", true);
        }
        if (group.bucketMin() >= 0) {
            routingConfig.put("promptLenBucketMinLength", group.bucketMin());
        }
        if (group.bucketMax() >= 0) {
            routingConfig.put("promptLenBucketMaxLength", group.bucketMax());
        }
        Map<String, Object> profile = new LinkedHashMap<>();
        profile.put("routingStrategy", SpecStrategies.PD);
        profile.put("routingConfig", routingConfig);
        try {
            return JSON.writeValueAsString(Map.of("profiles", Map.of("default", profile)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the config annotation of group " + group.name(), e);
        }
    }

    private static Pod pod(ClusterShape shape, PodGroup group, String name, String role, String roleset) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(SpecLabels.MODEL_NAME, shape.model());
        labels.put(SpecLabels.ENGINE, SpecLabels.DEFAULT_ENGINE);
        if (role != null) {
            labels.put(SpecLabels.ROLE_NAME, role);
            labels.put(SpecLabels.ROLESET_NAME, roleset);
        }
        String annotation = configAnnotation(group);
        List<String> warnings = new ArrayList<>();
        Pod pod = PodObjectReader.toPod(new PodObject(NAMESPACE, name, labels, Map.of(SpecLabels.CONFIG, annotation),
                POD_IP, false, false), warnings);
        if (!warnings.isEmpty()) {
            throw new IllegalArgumentException("pod " + name + " of " + shape.source() + ": " + warnings);
        }
        return pod;
    }

    /** The model's pods as routing sees them. */
    public ModelPods model() {
        return model;
    }

    public SimEngine engine(Pod pod) {
        SimEngine engine = engines.get(pod);
        if (engine == null) {
            throw new IllegalArgumentException(pod + " is not a pod of this cluster");
        }
        return engine;
    }

    /** Every engine, in the model's pod order (by namespace/name). */
    public List<SimEngine> engines() {
        return ordered;
    }

    /** What the gateway's metrics store holds for {@code pod} at {@code now}. */
    public PodMetrics metrics(Pod pod, long now) {
        return engine(pod).metrics(now);
    }

    /** The run's virtual time. */
    public long now() {
        return queue.now();
    }
}
