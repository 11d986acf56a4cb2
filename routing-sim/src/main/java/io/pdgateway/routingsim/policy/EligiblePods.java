package io.pdgateway.routingsim.policy;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.filter.PromptLengthBucketFilter;
import io.pdgateway.core.routing.filter.RolesetCompletenessFilter;
import java.util.ArrayList;
import java.util.List;

/**
 * The pods that may serve a request at all, by the production cascade's own step-0 filters: complete rolesets whose
 * prefill and decode ranges cover the prompt, and (with bucketing) standard pods whose range covers it. The floor and
 * the oracle choose among exactly these, so they never route where the gateway could not.
 */
final class EligiblePods {
    private final boolean bucketing;
    private final RolesetCompletenessFilter completeness = new RolesetCompletenessFilter();
    private final PromptLengthBucketFilter buckets = new PromptLengthBucketFilter();

    EligiblePods(boolean bucketing) {
        this.bucketing = bucketing;
    }

    PdCandidates of(RoutingContext context, ModelPods model) {
        List<Pod> standard = new ArrayList<>();
        if (bucketing) {
            for (Pod pod : model.pods()) {
                if (pod.isStandard(context.request().profile())) {
                    standard.add(pod);
                }
            }
        }
        PdCandidates candidates = new PdCandidates(new ArrayList<>(model.rolesets().values()), standard);
        candidates = completeness.filter(context, candidates).survivors();
        return bucketing ? buckets.filter(context, candidates).survivors() : candidates;
    }
}
