package io.pdgateway.core.routing.filter;

import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.PodFilter;
import io.pdgateway.core.routing.RoutingContext;
import java.util.List;

/**
 * Spec "Step 3 — Add Standard Inference Pods": standard pods serve PD requests only when prompt-length bucketing is
 * enabled, so without it this filter removes every one of them. The cascade has it only when bucketing is off.
 */
public final class StandardPodGateFilter implements PodFilter {
    public static final String NAME = "standard-pods-need-bucketing";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result filter(RoutingContext context, PdCandidates candidates) {
        if (candidates.standard().isEmpty()) {
            return new Result(candidates, List.of());
        }
        return new Result(candidates.withStandard(List.of()),
                List.of("standard pods take PD traffic only with AIBRIX_PROMPT_LENGTH_BUCKETING=true"));
    }
}
