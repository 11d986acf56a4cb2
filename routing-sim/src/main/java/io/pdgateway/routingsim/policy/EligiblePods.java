package io.pdgateway.routingsim.policy;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.RoutingConfig;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.filter.PromptLengthBucketFilter;
import io.pdgateway.core.routing.filter.RolesetCompletenessFilter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The pods that may serve a request at all, by the production cascade's own step-0 filters: complete rolesets whose
 * prefill and decode ranges cover the prompt, and (with bucketing) standard pods whose range covers it. The floor and
 * the oracle choose among exactly these, so they never route where the gateway could not.
 *
 * <p>For one model and no config-profile header the answer depends only on which of the pods' range bounds the
 * prompt length lies between, so it is computed by the filters once per such interval and reused: on 1,000 pods the
 * filters would otherwise cost as much as the rest of the floor.
 */
final class EligiblePods {
    private final boolean bucketing;
    private final RolesetCompletenessFilter completeness = new RolesetCompletenessFilter();
    private final PromptLengthBucketFilter buckets = new PromptLengthBucketFilter();
    private final Map<Integer, PdCandidates> byInterval = new HashMap<>();
    private ModelPods model;
    private int[] bounds;

    EligiblePods(boolean bucketing) {
        this.bucketing = bucketing;
    }

    PdCandidates of(RoutingContext context, ModelPods pods) {
        if (context.request().profile() != null) {
            return compute(context, pods); // another profile may declare other ranges: no reuse
        }
        if (pods != model) {
            model = pods;
            bounds = bounds(pods);
            byInterval.clear();
        }
        int interval = Arrays.binarySearch(bounds, context.request().promptTokens());
        interval = interval >= 0 ? interval + 1 : -interval - 1;
        return byInterval.computeIfAbsent(interval, k -> compute(context, pods));
    }

    private PdCandidates compute(RoutingContext context, ModelPods pods) {
        List<Pod> standard = new ArrayList<>();
        if (bucketing) {
            for (Pod pod : pods.pods()) {
                if (pod.isStandard(context.request().profile())) {
                    standard.add(pod);
                }
            }
        }
        PdCandidates candidates = new PdCandidates(new ArrayList<>(pods.rolesets().values()), standard);
        candidates = completeness.filter(context, candidates).survivors();
        return bucketing ? buckets.filter(context, candidates).survivors() : candidates;
    }

    /** Every length at which some pod's range starts or has just ended, sorted. */
    private static int[] bounds(ModelPods pods) {
        TreeSet<Integer> points = new TreeSet<>();
        for (Pod pod : pods.pods()) {
            RoutingConfig rc = pod.routingConfig(null);
            points.add(Math.max(0, rc.promptLenBucketMinLength()));
            if (rc.promptLenBucketMaxLength() > 0) {
                points.add(rc.promptLenBucketMaxLength() + 1);
            }
        }
        return points.stream().mapToInt(Integer::intValue).toArray();
    }
}
