package io.pdgateway.core.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every routable pod of one model, with the groupings the router needs computed once per snapshot: every decision
 * starts from them, and rebuilding them per decision cost a list copy per grouping and thousands of pods.
 *
 * @param rolesets every roleset, complete or not, by name, in name order
 * @param config the model-wide config: from the first pod (by namespace/name) with a parsable annotation, or null
 * @param engines the distinct engines among the pods; more than one is a misconfiguration routing refuses
 * @param rolesetList the rolesets' values in the same order (derived; whatever is passed is ignored)
 * @param prefillPods every roleset's prefill pods, roleset after roleset (derived)
 * @param decodePods every roleset's decode pods, roleset after roleset (derived)
 * @param computingPods every pod that computes prompts (prefill and standard pods, not decode pods) in pod order
 *     (derived): the pods a prompt's prefix-cache lookup covers
 * @param otherPods the pods with neither role, in pod order (derived): only they can be standard pods, so a decision
 *     over a model without any looks at none of its thousands of pods to find them
 */
public record ModelPods(String model, List<Pod> pods, Map<String, Roleset> rolesets, ModelConfig config,
        List<String> engines, List<Roleset> rolesetList, List<Pod> prefillPods, List<Pod> decodePods,
        List<Pod> computingPods, List<Pod> otherPods) {

    public ModelPods {
        pods = List.copyOf(pods);
        for (int slot = 0; slot < pods.size(); slot++) {
            pods.get(slot).slotHint(slot); // so a decision finds each pod's slot by one comparison (PodSlots)
        }
        rolesets = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(rolesets));
        engines = List.copyOf(engines);
        rolesetList = List.copyOf(rolesets.values());
        List<Pod> prefills = new ArrayList<>();
        List<Pod> decodes = new ArrayList<>();
        for (Roleset roleset : rolesetList) {
            prefills.addAll(roleset.prefills());
            decodes.addAll(roleset.decodes());
        }
        prefillPods = List.copyOf(prefills);
        decodePods = List.copyOf(decodes);
        List<Pod> computing = new ArrayList<>(pods.size());
        List<Pod> others = new ArrayList<>();
        for (Pod pod : pods) {
            if (pod.role() != PodRole.DECODE) {
                computing.add(pod);
            }
            if (pod.role() == PodRole.OTHER) {
                others.add(pod);
            }
        }
        computingPods = List.copyOf(computing);
        otherPods = List.copyOf(others);
    }

    public ModelPods(String model, List<Pod> pods, Map<String, Roleset> rolesets, ModelConfig config,
            List<String> engines) {
        this(model, pods, rolesets, config, engines, null, null, null, null, null);
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
