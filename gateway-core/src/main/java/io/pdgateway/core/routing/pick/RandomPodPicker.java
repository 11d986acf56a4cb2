package io.pdgateway.core.routing.pick;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.PodPicker;
import io.pdgateway.core.routing.RoutingContext;
import java.util.List;

/** The random strategy: any pod, uniformly, from the injected generator. */
public final class RandomPodPicker implements PodPicker {
    public static final String NAME = "random";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Pod pick(RoutingContext context, List<Pod> pods) {
        return pods.isEmpty() ? null : pods.get(context.random().nextInt(pods.size()));
    }
}
