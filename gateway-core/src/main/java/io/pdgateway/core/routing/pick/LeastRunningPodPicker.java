package io.pdgateway.core.routing.pick;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.LoadView;
import java.util.List;
import java.util.random.RandomGenerator;

/** The pod with the fewest running requests, a random one among equals: least-request, and standard-pod fallback. */
public final class LeastRunningPodPicker {
    private LeastRunningPodPicker() {}

    public static Pod pick(List<Pod> pods, LoadView load, RandomGenerator random) {
        return LowestPicker.lowest(pods, load::runningRequests, random);
    }
}
