package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.ClusterLoad;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.LoadView;
import java.util.List;

/**
 * Each prefill pod's in-flight prefill count, read once per decision: the prefill imbalance fast path, the stddev skip
 * and the in-flight prefill policies (least_request, prefix_cache, conductor) all read the same side of the same
 * decision, and each read is a pod's slot and its counters. A decision's {@link ClusterLoad} keeps the counts of the
 * last list read, so the second and third reads are free (the {@link DecodeInputs} of the prefill side). The array is
 * the decision's working array: read it during the decision, never write it, keep none of it.
 */
public final class InFlightCounts {
    private InFlightCounts() {}

    /** The counts of these pods, aligned with them. */
    public static double[] of(List<Pod> pods, LoadView load) {
        if (load instanceof ClusterLoad decision) {
            double[] known = decision.inFlightCounts(pods);
            if (known != null) {
                return known;
            }
            double[] computed = compute(pods, load);
            decision.inFlightCounts(pods, computed);
            return computed;
        }
        return compute(pods, load);
    }

    private static double[] compute(List<Pod> pods, LoadView load) {
        double[] counts = DecisionBuffers.doubles(load, Use.PREFILL_INFLIGHT, pods.size());
        for (int i = 0; i < counts.length; i++) {
            counts[i] = load.inFlightPrefills(pods.get(i));
        }
        return counts;
    }
}
