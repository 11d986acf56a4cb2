package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Roleset;
import java.util.List;

/** How the fast paths narrow candidates: one side to a single pod, the other side aligned to its roleset. */
public final class PdCandidatesNarrowing {
    private PdCandidatesNarrowing() {}

    /** Every prefill (or decode) pod of the candidates, in roleset order (computed once per candidates). */
    public static List<Pod> side(PdCandidates candidates, boolean prefill) {
        return candidates.side(prefill);
    }

    /** Only the pod's roleset remains, with the pod alone on its side. */
    public static PdCandidates to(PdCandidates candidates, Pod pod) {
        for (Roleset roleset : candidates.rolesets()) {
            boolean isPrefill = roleset.prefills().contains(pod);
            if (isPrefill || roleset.decodes().contains(pod)) {
                Roleset narrowed = isPrefill
                        ? new Roleset(roleset.name(), List.of(pod), roleset.decodes())
                        : new Roleset(roleset.name(), roleset.prefills(), List.of(pod));
                return new PdCandidates(List.of(narrowed), candidates.standard());
            }
        }
        throw new IllegalArgumentException(pod.id() + " is not a candidate");
    }

}
