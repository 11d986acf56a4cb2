package io.pdgateway.core.routing;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Roleset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the PD cascade is still choosing among: rolesets (with their remaining pods) and standard pods. Immutable. Each
 * side's pods in roleset order are computed at most once per instance (the fast paths, the scorers and the picker all
 * read them), and a decision that narrows nothing keeps its model's precomputed lists.
 */
public final class PdCandidates {
    private final List<Roleset> rolesets;
    private final List<Pod> standard;
    private List<Pod> prefills;
    private List<Pod> decodes;

    public PdCandidates(List<Roleset> rolesets, List<Pod> standard) {
        this(rolesets, standard, null, null);
    }

    private PdCandidates(List<Roleset> rolesets, List<Pod> standard, List<Pod> prefills, List<Pod> decodes) {
        this.rolesets = List.copyOf(rolesets);
        this.standard = List.copyOf(standard);
        this.prefills = prefills;
        this.decodes = decodes;
    }

    /** Every roleset of the model and every pod that is a standard pod under the request's profile. */
    public static PdCandidates of(ModelPods model, String profile) {
        List<Pod> standard = List.of();
        List<Pod> others = model.otherPods(); // a standard pod has neither role
        for (int i = 0; i < others.size(); i++) {
            Pod pod = others.get(i);
            if (pod.isStandard(profile)) {
                if (standard.isEmpty()) {
                    standard = new ArrayList<>();
                }
                standard.add(pod);
            }
        }
        return new PdCandidates(model.rolesetList(), standard, model.prefillPods(), model.decodePods());
    }

    public List<Roleset> rolesets() {
        return rolesets;
    }

    public List<Pod> standard() {
        return standard;
    }

    /**
     * Every prefill (or decode) pod of the candidates, in roleset order. Computed on first use; two threads racing on
     * it would each compute an equal immutable list (one decision uses its candidates on one thread anyway).
     */
    public List<Pod> side(boolean prefill) {
        List<Pod> side = prefill ? prefills : decodes;
        if (side == null) {
            side = collect(prefill);
            if (prefill) {
                prefills = side;
            } else {
                decodes = side;
            }
        }
        return side;
    }

    private List<Pod> collect(boolean prefill) {
        int size = 0;
        for (int r = 0; r < rolesets.size(); r++) {
            Roleset roleset = rolesets.get(r);
            size += prefill ? roleset.prefills().size() : roleset.decodes().size();
        }
        List<Pod> pods = new ArrayList<>(size);
        for (int r = 0; r < rolesets.size(); r++) {
            Roleset roleset = rolesets.get(r);
            pods.addAll(prefill ? roleset.prefills() : roleset.decodes());
        }
        return List.copyOf(pods);
    }

    public boolean hasCompletePair() {
        for (int r = 0; r < rolesets.size(); r++) {
            if (rolesets.get(r).isComplete()) {
                return true;
            }
        }
        return false;
    }

    /** The same rolesets (and their sides, when already known) with other standard pods. */
    public PdCandidates withStandard(List<Pod> pods) {
        return new PdCandidates(rolesets, pods, prefills, decodes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PdCandidates other && rolesets.equals(other.rolesets) && standard.equals(other.standard);
    }

    @Override
    public int hashCode() {
        return Objects.hash(rolesets, standard);
    }

    @Override
    public String toString() {
        return "PdCandidates[rolesets=" + rolesets + ", standard=" + standard + "]";
    }
}
