package io.pdgateway.core.model;

import java.util.List;

/** Prefill and decode pods sharing one roleset-name. Only a complete roleset (both sides present) is a PD candidate. */
public record Roleset(String name, List<Pod> prefills, List<Pod> decodes) {
    public Roleset {
        prefills = List.copyOf(prefills);
        decodes = List.copyOf(decodes);
    }

    public boolean isComplete() {
        return !prefills.isEmpty() && !decodes.isEmpty();
    }
}
