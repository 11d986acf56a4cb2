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
 * decision, and each read is a pod's slot and its counters. A decision's {@link SideReads} keep the counts of the
 * last list read, so the second and third reads are free (the {@link DecodeInputs} of the prefill side). The array is
 * the decision's working array: read it during the decision, never write it, keep none of it.
 */
public final class InFlightCounts {
    private InFlightCounts() {}

    /** The counts of these pods, aligned with them. */
    public static double[] of(List<Pod> pods, LoadView load) {
        if (load instanceof ClusterLoad decision) {
            SideReads reads = decision.sideReads();
            double[] known = reads.inFlightCounts(pods);
            if (known != null) {
                return known;
            }
            List<Pod> from = reads.narrowedFrom(pods);
            double[] whole = from == null ? null : reads.inFlightCounts(from);
            double[] computed = whole != null ? narrowed(whole, reads.narrowedKeep(pods), pods.size(), load)
                    : compute(pods, load);
            reads.inFlightCounts(pods, computed);
            return computed;
        }
        return compute(pods, load);
    }

    /**
     * The counts of the pods a stage kept of a list whose counts this decision read: the same values, copied. The
     * working array has the kept list's length, shorter than the whole's, so it is another array than the whole's.
     */
    private static double[] narrowed(double[] whole, boolean[] keep, int kept, LoadView load) {
        double[] counts = DecisionBuffers.doubles(load, Use.PREFILL_INFLIGHT, kept);
        for (int i = 0, j = 0; i < whole.length; i++) {
            if (keep[i]) {
                counts[j++] = whole[i];
            }
        }
        return counts;
    }

    private static double[] compute(List<Pod> pods, LoadView load) {
        double[] counts = DecisionBuffers.doubles(load, Use.PREFILL_INFLIGHT, pods.size());
        // The model's prefill side is known by slot: its pods' objects need not be read to find their rows.
        ClusterLoad bySlot = load instanceof ClusterLoad decision ? decision : null;
        int[] slots = bySlot == null ? null : bySlot.slotsOf(pods);
        for (int i = 0; i < counts.length; i++) {
            counts[i] = slots != null ? bySlot.inFlightPrefillsAt(slots[i]) : load.inFlightPrefills(pods.get(i));
        }
        return counts;
    }
}
