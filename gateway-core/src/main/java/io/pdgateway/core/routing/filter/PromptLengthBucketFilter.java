package io.pdgateway.core.routing.filter;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Roleset;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.PodFilter;
import io.pdgateway.core.routing.RouteRequest;
import io.pdgateway.core.routing.RoutingContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Spec "Step 0 — Prompt-length bucketing": keep each pod whose own profile's range covers the prompt length; a
 * roleset survives only when both a prefill and a decode pod still do. Standard pods are narrowed the same way.
 */
public final class PromptLengthBucketFilter implements PodFilter {
    public static final String NAME = "prompt-length-bucket";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result filter(RoutingContext context, PdCandidates candidates) {
        RouteRequest request = context.request();
        int length = request.promptTokens();
        List<Roleset> kept = new ArrayList<>();
        List<String> rejections = new ArrayList<>();
        for (Roleset roleset : candidates.rolesets()) {
            List<Pod> prefills = covering(roleset.prefills(), request);
            List<Pod> decodes = covering(roleset.decodes(), request);
            if (prefills.isEmpty() || decodes.isEmpty()) {
                rejections.add(roleset.name() + ": prompt length " + length + " outside the "
                        + (prefills.isEmpty() ? "prefill" : "decode") + " range");
            } else {
                kept.add(new Roleset(roleset.name(), prefills, decodes));
            }
        }
        List<Pod> standard = covering(candidates.standard(), request);
        for (Pod pod : candidates.standard()) {
            if (!standard.contains(pod)) {
                rejections.add(pod.id() + ": prompt length " + length + " outside its range");
            }
        }
        return new Result(new PdCandidates(kept, standard), rejections);
    }

    private static List<Pod> covering(List<Pod> pods, RouteRequest request) {
        List<Pod> out = new ArrayList<>(pods.size());
        for (Pod pod : pods) {
            if (pod.routingConfig(request.profile()).coversPromptLength(request.promptTokens())) {
                out.add(pod);
            }
        }
        return out;
    }
}
