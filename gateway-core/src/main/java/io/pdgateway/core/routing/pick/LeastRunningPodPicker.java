package io.pdgateway.core.routing.pick;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.LoadView;
import io.pdgateway.core.routing.PodPicker;
import io.pdgateway.core.routing.RoutingContext;
import java.util.List;
import java.util.random.RandomGenerator;

/** The pod with the fewest running requests, a random one among equals: least-request, and standard-pod fallback. */
public final class LeastRunningPodPicker implements PodPicker {
    public static final String NAME = "least-request";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Pod pick(RoutingContext context, List<Pod> pods) {
        return pick(pods, context.load(), context.random());
    }

    public static Pod pick(List<Pod> pods, LoadView load, RandomGenerator random) {
        return LowestPicker.lowest(pods, load::runningRequests, random);
    }
}
