package io.pdgateway.core.routing;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import java.util.ArrayList;
import java.util.List;

/** Routes one request over its model's pods with the already-resolved strategy. Pure. */
public final class Router implements RouteDecider {
    private final PdCascade pd;

    public Router(PdCascade pd) {
        this.pd = pd;
    }

    public PdCascade cascade() {
        return pd;
    }

    @Override
    public RouteDecision route(RoutingContext context) {
        Strategy strategy = context.request().strategy();
        ModelPods model = context.model();
        if (model == null || model.pods().isEmpty()) {
            return RouteDecision.none(Verdict.NO_ROUTABLE_POD, strategy, Step.NO_CANDIDATE, "model has no routable pod");
        }
        if (model.engine() == null) {
            return RouteDecision.none(Verdict.ENGINE_MISMATCH, strategy, Step.NO_CANDIDATE,
                    "inconsistent LLM engines detected among the model's pods: " + model.engines());
        }
        if (strategy.isPd()) {
            return pd.route(context);
        }
        // design.md §2: non-PD strategies choose among pods that can serve a whole request alone.
        List<Pod> standalone = new ArrayList<>();
        for (Pod pod : model.pods()) {
            if (pod.role() == PodRole.OTHER && context.request().allows(pod)) {
                standalone.add(pod);
            }
        }
        // Outlier detection: leave out ejected pods, unless that leaves none (then take the chance, as Envoy's panic).
        List<Pod> live = new ArrayList<>(standalone.size());
        for (Pod pod : standalone) {
            if (!context.load().ejected(pod)) {
                live.add(pod);
            }
        }
        if (!live.isEmpty()) {
            standalone = live;
        }
        if (standalone.isEmpty()) {
            return RouteDecision.none(Verdict.NO_STANDALONE_POD, strategy, Step.NO_CANDIDATE, "strategy " + strategy
                    + " needs a pod that is neither prefill nor decode (and not excluded); use routing-strategy: pd");
        }
        PodPicker picker = strategy.picker();
        Pod pod = picker.pick(context, standalone);
        return RouteDecision.single(pod, Verdict.SINGLE_POD_SELECTED, strategy, strategy.specName(),
                strategy + " picked " + pod.name());
    }
}
