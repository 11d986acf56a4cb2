package io.pdgateway.core.routing;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.core.routing.pick.LeastRunningPodPicker;
import io.pdgateway.core.routing.pick.PrefixCachePodPicker;
import io.pdgateway.core.routing.pick.SessionAffinityPodPicker;
import io.pdgateway.core.spec.SpecStrategies;
import java.util.ArrayList;
import java.util.List;

/** Routes one request over one model's pods with the already-resolved strategy. Pure. */
public final class Router {
    private final PdCascade pd;

    public Router(PdCascade pd) {
        this.pd = pd;
    }

    public RouteDecision route(RoutingContext context, ModelPods model) {
        String strategy = context.request().strategy();
        if (model == null || model.pods().isEmpty()) {
            return RouteDecision.none(Verdict.NO_ROUTABLE_POD, strategy, Step.NO_CANDIDATE, "model has no routable pod");
        }
        if (model.engine() == null) {
            return RouteDecision.none(Verdict.ENGINE_MISMATCH, strategy, Step.NO_CANDIDATE,
                    "inconsistent LLM engines detected among the model's pods: " + model.engines());
        }
        if (SpecStrategies.PD.equals(strategy)) {
            return pd.route(context, model);
        }
        // design.md §2: non-PD strategies choose among pods that can serve a whole request alone.
        List<Pod> standalone = new ArrayList<>();
        for (Pod pod : model.pods()) {
            if (pod.role() == PodRole.OTHER && context.request().allows(pod)) {
                standalone.add(pod);
            }
        }
        if (standalone.isEmpty()) {
            return RouteDecision.none(Verdict.NO_STANDALONE_POD, strategy, Step.NO_CANDIDATE, "strategy " + strategy
                    + " needs a pod that is neither prefill nor decode (and not excluded); use routing-strategy: pd");
        }
        Pod pod = switch (strategy) {
            case SpecStrategies.LEAST_REQUEST -> LeastRunningPodPicker.pick(standalone, context.load(), context.random());
            case SpecStrategies.PREFIX_CACHE -> PrefixCachePodPicker.pick(context, standalone);
            case SpecStrategies.SESSION_AFFINITY -> SessionAffinityPodPicker.pick(context.request().sessionKey(),
                    standalone, context.random());
            default -> standalone.get(context.random().nextInt(standalone.size()));
        };
        return RouteDecision.single(pod, Verdict.SINGLE_POD_SELECTED, strategy, strategy, strategy + " picked " + pod.name());
    }
}
