package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.MetricsRows.Column;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.routing.ClusterLoad;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.LoadView;
import java.util.List;

/**
 * The per-pod decode signals the decode fast paths and scorers share (reference §3 step E), computed once per
 * decision: request count, throughput, free KV percentage, and the batch maxima they are normalised by. The arrays
 * are the decision's working arrays ({@link DecisionBuffers}): read them during the decision, keep none of them.
 */
public final class DecodeInputs {
    /** Reference §3: a full KV cache counts as 0.1 % free, so the load-balancing score stays finite. */
    static final double MIN_FREE_PERCENT = 0.1;

    final double[] count;
    final boolean[] observed;
    final double[] throughput;
    final boolean[] throughputObserved;
    final double[] free;
    /** The batch maxima (at least 1 each), set by {@link #measured} once the arrays are filled. */
    double maxCount;
    double maxThroughput;
    double maxFree;

    /** Inputs for n pods, in the decision's working arrays, to be filled and then {@link #measured}. */
    private DecodeInputs(LoadView load, int n) {
        count = DecisionBuffers.doubles(load, Use.DECODE_COUNT, n);
        observed = DecisionBuffers.flags(load, Use.DECODE_OBSERVED, n);
        throughput = DecisionBuffers.doubles(load, Use.DECODE_THROUGHPUT, n);
        throughputObserved = DecisionBuffers.flags(load, Use.DECODE_THROUGHPUT_OBSERVED, n);
        free = DecisionBuffers.doubles(load, Use.DECODE_FREE, n);
    }

    /** Finds the maxima of the filled arrays; returns this. */
    private DecodeInputs measured() {
        double mostCount = 1;
        double mostThroughput = 1;
        double mostFree = 1;
        for (int i = 0; i < count.length; i++) {
            // Compared rather than Math.max (no NaN here): see DecodeImbalanceFastPath.spread.
            if (count[i] > mostCount) {
                mostCount = count[i];
            }
            if (throughputObserved[i] && throughput[i] > mostThroughput) {
                mostThroughput = throughput[i];
            }
            if (free[i] > mostFree) {
                mostFree = free[i];
            }
        }
        maxCount = mostCount;
        maxThroughput = mostThroughput;
        maxFree = mostFree;
        return this;
    }

    /**
     * The inputs of these pods. The step-2 fast path and the step-4 scorer usually read the same side of the same
     * decision; a decision's {@link SideReads} keep the last inputs for the list, so the second read is free. A
     * list a scorer narrowed from one already read (the cold start's warm pods) gets the same values copied.
     */
    public static DecodeInputs of(List<Pod> pods, LoadView load) {
        if (load instanceof ClusterLoad decision) {
            SideReads reads = decision.sideReads();
            DecodeInputs known = reads.decodeInputs(pods);
            if (known != null) {
                return known;
            }
            List<Pod> from = reads.narrowedFrom(pods);
            DecodeInputs whole = from == null ? null : reads.decodeInputs(from);
            DecodeInputs computed = whole != null ? whole.narrowed(reads.narrowedKeep(pods), pods.size(), load)
                    : compute(pods, load);
            reads.decodeInputs(pods, computed);
            return computed;
        }
        return compute(pods, load);
    }

    private static DecodeInputs compute(List<Pod> pods, LoadView load) {
        DecodeInputs in = new DecodeInputs(load, pods.size());
        // The model's decode side is known by slot: its pods' objects need not be read to find their rows.
        ClusterLoad bySlot = load instanceof ClusterLoad decision ? decision : null;
        int[] slots = bySlot == null ? null : bySlot.slotsOf(pods);
        for (int i = 0; i < in.count.length; i++) {
            double throughput;
            double kvUsage;
            int running;
            if (slots != null) {
                // The rows' copies: the scrape's own object and its entry are each one more cache miss per pod (JFR:
                // a fifth of a 4,096-pod prefix_cache decision was these reads).
                throughput = bySlot.freshMetricAt(slots[i], Column.GENERATION_THROUGHPUT);
                kvUsage = bySlot.freshMetricAt(slots[i], Column.KV_CACHE_USAGE);
                running = bySlot.runningIfObservedAt(slots[i]);
            } else {
                Pod pod = pods.get(i);
                PodMetrics m = load.metrics(pod);
                throughput = m.generationThroughput();
                kvUsage = m.kvCacheUsage();
                running = load.runningIfObserved(pod);
            }
            in.count[i] = LoadView.observedRunning(running);
            in.observed[i] = running >= 0;
            in.throughputObserved[i] = !Double.isNaN(throughput);
            in.throughput[i] = in.throughputObserved[i] ? throughput : 0;
            double kv = Double.isNaN(kvUsage) ? 0 : kvUsage;
            double f = Math.round(100 - kv * 100);
            in.free[i] = f <= 0 ? MIN_FREE_PERCENT : f;
        }
        return in.measured();
    }

    /**
     * The inputs of the pods a stage kept of these ({@code keep}, {@code n} of them): the same values, copied, and the
     * maxima over the kept pods. The working arrays have the kept list's length, shorter than these inputs', so they
     * are other arrays than these.
     */
    private DecodeInputs narrowed(boolean[] keep, int n, LoadView load) {
        DecodeInputs kept = new DecodeInputs(load, n);
        for (int i = 0, j = 0; i < count.length; i++) {
            if (keep[i]) {
                kept.count[j] = count[i];
                kept.observed[j] = observed[i];
                kept.throughput[j] = throughput[i];
                kept.throughputObserved[j] = throughputObserved[i];
                kept.free[j] = free[i];
                j++;
            }
        }
        return kept.measured();
    }

    /** Every pod's request count, aligned with the pods: read only (shared with whoever reads these inputs). */
    public double[] counts() {
        return count;
    }

    /** Read only. */
    public boolean[] observedFlags() {
        return observed;
    }

    /** Read only. */
    public double[] throughputs() {
        return throughput;
    }

    /** Read only. */
    public boolean[] throughputObservedFlags() {
        return throughputObserved;
    }

    public double count(int i) {
        return count[i];
    }

    public boolean observed(int i) {
        return observed[i];
    }

    public double throughput(int i) {
        return throughput[i];
    }

    public boolean throughputObserved(int i) {
        return throughputObserved[i];
    }

    public double free(int i) {
        return free[i];
    }
}
