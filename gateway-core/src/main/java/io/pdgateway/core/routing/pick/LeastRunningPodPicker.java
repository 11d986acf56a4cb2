package io.pdgateway.core.routing.pick;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.LoadView;
import java.util.List;
import java.util.random.RandomGenerator;

/** The pod with the fewest running requests, a random one among equals: least-request, and standard-pod fallback. */
public final class LeastRunningPodPicker {
    private LeastRunningPodPicker() {}

    public static Pod pick(List<Pod> pods, LoadView load, RandomGenerator random) {
        Pod best = null;
        int bestCount = Integer.MAX_VALUE;
        int ties = 0;
        for (Pod pod : pods) {
            int count = load.runningRequests(pod);
            if (count < bestCount) {
                best = pod;
                bestCount = count;
                ties = 1;
            } else if (count == bestCount && random.nextInt(++ties) == 0) {
                best = pod;
            }
        }
        return best;
    }
}
