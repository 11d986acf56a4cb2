package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** Scores of one side (prefill or decode), keyed by pod identity. */
public final class ScoredPods {
    private final Map<Pod, Double> scores = new IdentityHashMap<>();

    public static ScoredPods of(List<Pod> pods, double[] values) {
        ScoredPods scored = new ScoredPods();
        for (int i = 0; i < pods.size(); i++) {
            scored.scores.put(pods.get(i), values[i]);
        }
        return scored;
    }

    /** The pod's score, or NaN when it was not scored. */
    public double score(Pod pod) {
        Double value = scores.get(pod);
        return value == null ? Double.NaN : value;
    }
}
