package io.pdgateway.core.routing.score;

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
    final double maxCount;
    final double maxThroughput;
    final double maxFree;

    private DecodeInputs(int n, double maxCount, double maxThroughput, double maxFree, double[] count, boolean[] observed,
            double[] throughput, boolean[] throughputObserved, double[] free) {
        this.count = count;
        this.observed = observed;
        this.throughput = throughput;
        this.throughputObserved = throughputObserved;
        this.free = free;
        this.maxCount = maxCount;
        this.maxThroughput = maxThroughput;
        this.maxFree = maxFree;
    }

    /**
     * The inputs of these pods. The step-2 fast path and the step-4 scorer usually read the same side of the same
     * decision; a decision's {@link ClusterLoad} keeps the last inputs for the list, so the second read is free. A
     * list a scorer narrowed from one already read (the cold start's warm pods) gets the same values copied.
     */
    public static DecodeInputs of(List<Pod> pods, LoadView load) {
        if (load instanceof ClusterLoad decision) {
            DecodeInputs known = decision.decodeInputs(pods);
            if (known != null) {
                return known;
            }
            List<Pod> from = decision.narrowedFrom(pods);
            DecodeInputs whole = from == null ? null : decision.decodeInputs(from);
            DecodeInputs computed = whole != null ? whole.narrowed(decision.narrowedKeep(pods), pods.size(), load)
                    : compute(pods, load);
            decision.decodeInputs(pods, computed);
            return computed;
        }
        return compute(pods, load);
    }

    private static DecodeInputs compute(List<Pod> pods, LoadView load) {
        int n = pods.size();
        double[] count = DecisionBuffers.doubles(load, Use.DECODE_COUNT, n);
        boolean[] observed = DecisionBuffers.flags(load, Use.DECODE_OBSERVED, n);
        double[] throughput = DecisionBuffers.doubles(load, Use.DECODE_THROUGHPUT, n);
        boolean[] throughputObserved = DecisionBuffers.flags(load, Use.DECODE_THROUGHPUT_OBSERVED, n);
        double[] free = DecisionBuffers.doubles(load, Use.DECODE_FREE, n);
        double maxCount = 1;
        double maxThroughput = 1;
        double maxFree = 1;
        for (int i = 0; i < n; i++) {
            Pod pod = pods.get(i);
            PodMetrics m = load.metrics(pod);
            int running = load.runningIfObserved(pod);
            count[i] = LoadView.observedRunning(running);
            observed[i] = running >= 0;
            throughputObserved[i] = m.hasThroughput();
            throughput[i] = throughputObserved[i] ? m.generationThroughput() : 0;
            double kv = Double.isNaN(m.kvCacheUsage()) ? 0 : m.kvCacheUsage();
            double f = Math.round(100 - kv * 100);
            free[i] = f <= 0 ? MIN_FREE_PERCENT : f;
            // Compared rather than Math.max (no NaN here): see DecodeImbalanceFastPath.spread.
            if (count[i] > maxCount) {
                maxCount = count[i];
            }
            if (throughputObserved[i] && throughput[i] > maxThroughput) {
                maxThroughput = throughput[i];
            }
            if (free[i] > maxFree) {
                maxFree = free[i];
            }
        }
        return new DecodeInputs(n, maxCount, maxThroughput, maxFree, count, observed, throughput, throughputObserved, free);
    }

    /**
     * The inputs of the pods a stage kept of these ({@code keep}, {@code n} of them): the same values, copied, and the
     * maxima over the kept pods, as {@link #compute} would find them. The working arrays have the kept list's length,
     * shorter than these inputs', so they are other arrays than these.
     */
    private DecodeInputs narrowed(boolean[] keep, int n, LoadView load) {
        double[] keptCount = DecisionBuffers.doubles(load, Use.DECODE_COUNT, n);
        boolean[] keptObserved = DecisionBuffers.flags(load, Use.DECODE_OBSERVED, n);
        double[] keptThroughput = DecisionBuffers.doubles(load, Use.DECODE_THROUGHPUT, n);
        boolean[] keptThroughputObserved = DecisionBuffers.flags(load, Use.DECODE_THROUGHPUT_OBSERVED, n);
        double[] keptFree = DecisionBuffers.doubles(load, Use.DECODE_FREE, n);
        double keptMaxCount = 1;
        double keptMaxThroughput = 1;
        double keptMaxFree = 1;
        for (int i = 0, j = 0; i < count.length; i++) {
            if (!keep[i]) {
                continue;
            }
            keptCount[j] = count[i];
            keptObserved[j] = observed[i];
            keptThroughput[j] = throughput[i];
            keptThroughputObserved[j] = throughputObserved[i];
            keptFree[j] = free[i];
            if (count[i] > keptMaxCount) {
                keptMaxCount = count[i];
            }
            if (throughputObserved[i] && throughput[i] > keptMaxThroughput) {
                keptMaxThroughput = throughput[i];
            }
            if (free[i] > keptMaxFree) {
                keptMaxFree = free[i];
            }
            j++;
        }
        return new DecodeInputs(n, keptMaxCount, keptMaxThroughput, keptMaxFree, keptCount, keptObserved,
                keptThroughput, keptThroughputObserved, keptFree);
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
