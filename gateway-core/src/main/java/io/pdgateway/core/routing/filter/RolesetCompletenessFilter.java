package io.pdgateway.core.routing.filter;

import io.pdgateway.core.model.Roleset;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.PodFilter;
import io.pdgateway.core.routing.RoutingContext;
import java.util.ArrayList;
import java.util.List;

/** Spec "Step 1 — Label Your Pods": a roleset with only a prefill or only a decode pod is skipped entirely. */
public final class RolesetCompletenessFilter implements PodFilter {
    public static final String NAME = "roleset-completeness";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result filter(RoutingContext context, PdCandidates candidates) {
        if (allComplete(candidates.rolesets())) {
            return new Result(candidates, List.of()); // the usual case: nothing to copy, the sides stay known
        }
        List<Roleset> kept = new ArrayList<>();
        List<String> rejections = new ArrayList<>();
        for (Roleset roleset : candidates.rolesets()) {
            if (roleset.isComplete()) {
                kept.add(roleset);
            } else {
                rejections.add(roleset.name() + ": incomplete (prefill=" + roleset.prefills().size()
                        + ", decode=" + roleset.decodes().size() + ")");
            }
        }
        return new Result(new PdCandidates(kept, candidates.standard()), rejections);
    }

    private static boolean allComplete(List<Roleset> rolesets) {
        for (int r = 0; r < rolesets.size(); r++) {
            if (!rolesets.get(r).isComplete()) {
                return false;
            }
        }
        return true;
    }
}
