package io.pdgateway.core.model;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** An immutable view of every routable pod, grouped by model. Built by discovery at the edge, read by routing. */
public final class ClusterSnapshot {
    public static final ClusterSnapshot EMPTY = of(List.of());

    private final Map<String, ModelPods> models;
    private final Map<String, Pod> podsById;

    private ClusterSnapshot(Map<String, ModelPods> models, Map<String, Pod> podsById) {
        this.models = models;
        this.podsById = podsById;
    }

    public static ClusterSnapshot of(Collection<Pod> pods) {
        Map<String, List<Pod>> byModel = new TreeMap<>();
        Map<String, Pod> byId = new HashMap<>();
        for (Pod pod : pods) {
            byModel.computeIfAbsent(pod.model(), k -> new ArrayList<>()).add(pod);
            byId.put(pod.id(), pod);
        }
        Map<String, ModelPods> models = new TreeMap<>();
        byModel.forEach((model, list) -> models.put(model, ModelPods.of(model, list)));
        return new ClusterSnapshot(Map.copyOf(models), Map.copyOf(byId));
    }

    /** The model's pods, or null when the model is unknown. */
    public ModelPods model(String model) {
        return models.get(model);
    }

    public Collection<ModelPods> models() {
        return new TreeMap<>(models).values();
    }

    public Pod pod(String id) {
        return podsById.get(id);
    }

    public int podCount() {
        return podsById.size();
    }
}
