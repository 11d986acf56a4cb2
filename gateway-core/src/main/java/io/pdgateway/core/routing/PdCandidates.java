package io.pdgateway.core.routing;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Roleset;
import java.util.ArrayList;
import java.util.List;

/** What the PD cascade is still choosing among: rolesets (with their remaining pods) and standard pods. */
public record PdCandidates(List<Roleset> rolesets, List<Pod> standard) {
    public PdCandidates {
        rolesets = List.copyOf(rolesets);
        standard = List.copyOf(standard);
    }

    /** Every roleset of the model and every pod that is a standard pod under the request's profile. */
    public static PdCandidates of(ModelPods model, String profile) {
        List<Pod> standard = new ArrayList<>();
        for (Pod pod : model.pods()) {
            if (pod.isStandard(profile)) {
                standard.add(pod);
            }
        }
        return new PdCandidates(new ArrayList<>(model.rolesets().values()), standard);
    }

    public boolean hasCompletePair() {
        for (Roleset roleset : rolesets) {
            if (roleset.isComplete()) {
                return true;
            }
        }
        return false;
    }

    public PdCandidates withStandard(List<Pod> pods) {
        return new PdCandidates(rolesets, pods);
    }
}
