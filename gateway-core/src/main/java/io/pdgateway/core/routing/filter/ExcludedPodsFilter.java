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
 * Removes the pods the request excludes ({@link RouteRequest#excludedPods()}: a prefill pod that already failed this
 * request, when the edge routes it again, or the endpoints outside the subset an Envoy proxy allows the picker), and
 * every roleset when the body cannot go to a pair ({@link RouteRequest#pairRefusal()}: a batch the engine's hand-off
 * cannot carry). It runs first, so a roleset left without a prefill or a decode pod is then dropped by the
 * completeness filter, and the rest of the cascade (standard-pod fallback included) decides among what remains exactly
 * as for a first decision. With nothing excluded it returns its input as is.
 */
public final class ExcludedPodsFilter implements PodFilter {
    public static final String NAME = "excluded-pods";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result filter(RoutingContext context, PdCandidates candidates) {
        RouteRequest request = context.request();
        if (request.excludedPods().isEmpty() && request.pairRefusal() == null) {
            return new Result(candidates, List.of());
        }
        List<String> rejections = new ArrayList<>();
        List<Roleset> rolesets = new ArrayList<>(candidates.rolesets().size());
        if (request.pairRefusal() != null) {
            rejections.add("every prefill/decode pair: " + request.pairRefusal());
        } else {
            for (Roleset roleset : candidates.rolesets()) {
                rolesets.add(new Roleset(roleset.name(), allowed(roleset.prefills(), request, rejections),
                        allowed(roleset.decodes(), request, rejections)));
            }
        }
        List<Pod> standard = allowed(candidates.standard(), request, rejections);
        return new Result(new PdCandidates(rolesets, standard), rejections);
    }

    private static List<Pod> allowed(List<Pod> pods, RouteRequest request, List<String> rejections) {
        List<Pod> kept = new ArrayList<>(pods.size());
        for (Pod pod : pods) {
            if (request.allows(pod)) {
                kept.add(pod);
            } else {
                rejections.add(pod.id() + ": excluded (failed this request, or outside the proxy's endpoint subset)");
            }
        }
        return kept;
    }
}
