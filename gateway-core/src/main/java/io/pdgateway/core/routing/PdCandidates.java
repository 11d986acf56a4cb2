package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Roleset;
import java.util.List;

/** What the PD cascade is still choosing among: rolesets (with their remaining pods) and standard pods. */
public record PdCandidates(List<Roleset> rolesets, List<Pod> standard) {
    public PdCandidates {
        rolesets = List.copyOf(rolesets);
        standard = List.copyOf(standard);
    }

    public boolean hasCompletePair() {
        for (Roleset roleset : rolesets) {
            if (roleset.isComplete()) {
                return true;
            }
        }
        return false;
    }
}
