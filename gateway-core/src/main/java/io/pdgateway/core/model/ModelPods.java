package io.pdgateway.core.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every routable pod of one model, with the groupings the router needs computed once per snapshot.
 *
 * @param rolesets every roleset, complete or not, by name, in name order
 * @param config the model-wide config: from the first pod (by namespace/name) with a parsable annotation, or null
 * @param engines the distinct engines among the pods; more than one is a misconfiguration routing refuses
 */
public record ModelPods(String model, List<Pod> pods, Map<String, Roleset> rolesets, ModelConfig config, List<String> engines) {

    public ModelPods {
        pods = List.copyOf(pods);
        rolesets = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(rolesets));
        engines = List.copyOf(engines);
    }

    public static ModelPods of(String model, List<Pod> pods) {
        List<Pod> sorted = new ArrayList<>(pods);
        sorted.sort(Comparator.comparing(Pod::id));
        Map<String, List<Pod>> prefills = new TreeMap<>();
        Map<String, List<Pod>> decodes = new TreeMap<>();
        ModelConfig config = null;
        List<String> engines = new ArrayList<>();
        for (Pod pod : sorted) {
            if (config == null && pod.config() != null) {
                config = pod.config();
            }
            if (!engines.contains(pod.engine())) {
                engines.add(pod.engine());
            }
            if (pod.rolesetName() == null || pod.role() == PodRole.OTHER) {
                continue;
            }
            Map<String, List<Pod>> side = pod.role() == PodRole.PREFILL ? prefills : decodes;
            side.computeIfAbsent(pod.rolesetName(), k -> new ArrayList<>()).add(pod);
            (pod.role() == PodRole.PREFILL ? decodes : prefills).computeIfAbsent(pod.rolesetName(), k -> new ArrayList<>());
        }
        Map<String, Roleset> rolesets = new LinkedHashMap<>();
        for (String name : prefills.keySet()) {
            rolesets.put(name, new Roleset(name, prefills.get(name), decodes.get(name)));
        }
        return new ModelPods(model, sorted, rolesets, config, engines);
    }

    /** The single engine of this model, or null when pods disagree. */
    public String engine() {
        return engines.size() == 1 ? engines.get(0) : null;
    }
}
