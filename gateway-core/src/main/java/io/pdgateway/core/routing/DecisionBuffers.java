package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import java.util.List;

/**
 * Working arrays of a model's decisions, reused from one decision to the next instead of allocated per decision
 * (thousands of pods make each a few to tens of kilobytes). A decision asks for an array by its use and exact length
 * and gets one kept for that use and length, else a new one that is kept from then on. Two lengths are kept per use
 * (the one used last replaced): a side is often scored whole by one stage and narrowed to a roleset or a pod by the
 * next, and one kept array would be replaced back and forth every decision. Contents are whatever the last user left:
 * a user writes every element before reading any.
 *
 * <p>A side's scores (and the picker's final scores) are kept by the decision's lazily built score table, so they come
 * from here only when the decision will not be asked for that table ({@link #scores}, {@link #scoresKept}).
 *
 * <p>Not thread-safe: one per model, used under the model's lock, one decision at a time.
 */
public final class DecisionBuffers {
    /** What an array is for: two uses never share one, so stages of one decision cannot overwrite each other's. */
    public enum Use {
        DECODE_COUNT, DECODE_THROUGHPUT, DECODE_FREE, DECODE_OBSERVED, DECODE_THROUGHPUT_OBSERVED,
        PREFILL_INFLIGHT, PREFILL_KEPT, PREFIX_PERCENT, DECODE_RATE, DECODE_WARM, DECODE_COLD, SUBSET_OTHERS,
        DECODE_DRAIN, DECODE_ALL, PREFILL_HELD, PREFILL_KEPT_PODS, DECODE_WARM_PODS,
        /** Each decode pod's running requests, ledger tokens and age, throughput, KV use ({@code DecodeLoads}). */
        DECODE_LOAD_RUNNING, DECODE_LOAD_TOKENS, DECODE_LOAD_AGE, DECODE_LOAD_THROUGHPUT, DECODE_LOAD_KV,
        /** predicted_ttft: each candidate's prefill model and queue, copied once per decision. */
        PREFILL_STATES,
        /** predicted_ttft: each candidate's slot, when its list is a side or a subset of one ({@code ClusterLoad}). */
        PREFILL_SLOTS,
        /** The prefill policy's scores of the pods it was given. */
        PREFILL_SCORES,
        /** The prefill side's scores when the stddev skip left pods out (the policy scored the rest). */
        PREFILL_SUBSET_SCORES,
        /** The decode policy's scores of the pods it was given. */
        DECODE_SCORES,
        /** The decode scores with the NaN retry's fallback filled in. */
        DECODE_RETRY_SCORES,
        /** The decode side's scores when the cold start scored new pods apart. */
        DECODE_SUBSET_SCORES,
        /** Step 5's score per roleset. */
        ROLESET_SCORES,
        /**
         * predicted_ttft: each roleset's prefill and decode pod (their positions in the side lists), and whether that
         * decode pod is under its limits.
         */
        ROLESET_PREFILLS, ROLESET_DECODES, ROLESET_FEASIBLE
    }

    private static final int USES = Use.values().length;

    /** Per use, two kept arrays: [2u] the one used last, [2u + 1] the other. */
    private final double[][] doubles = new double[2 * USES][];
    private final boolean[][] flags = new boolean[2 * USES][];
    private final int[][] ints = new int[2 * USES][];
    private final PodSubset[] subsets = new PodSubset[USES];

    public DecisionBuffers() {
        for (int u = 0; u < USES; u++) {
            subsets[u] = new PodSubset();
        }
    }

    /**
     * An empty subset of {@code of} for this use: the one kept for it, emptied (its capacity stays, so filling it
     * allocates nothing).
     */
    public PodSubset subset(Use use, List<Pod> of, int capacity) {
        return subsets[use.ordinal()].reset(of, capacity);
    }

    public double[] doubles(Use use, int length) {
        int at = 2 * use.ordinal();
        double[] last = doubles[at];
        if (last != null && last.length == length) {
            return last;
        }
        double[] other = doubles[at + 1];
        double[] kept = other != null && other.length == length ? other : new double[length];
        doubles[at + 1] = last;
        doubles[at] = kept;
        return kept;
    }

    /**
     * An array of at least {@code length} for a use that reads only the elements it wrote, by index: one kept array,
     * replaced only by a longer one. For arrays several elements per pod of a narrowed side, whose length changes
     * whenever the narrowing keeps another number of pods: kept by exact length, they were allocated anew at most such
     * changes (predicted_ttft's copied prefill states, seven doubles a pod: 12 KB a decision at 4,096 pods). A use is
     * asked for this way or by exact length, never both.
     */
    public double[] doublesAtLeast(Use use, int length) {
        int at = 2 * use.ordinal();
        double[] kept = doubles[at];
        if (kept == null || kept.length < length) {
            kept = new double[length];
            doubles[at] = kept;
        }
        return kept;
    }

    public boolean[] flags(Use use, int length) {
        int at = 2 * use.ordinal();
        boolean[] last = flags[at];
        if (last != null && last.length == length) {
            return last;
        }
        boolean[] other = flags[at + 1];
        boolean[] kept = other != null && other.length == length ? other : new boolean[length];
        flags[at + 1] = last;
        flags[at] = kept;
        return kept;
    }

    public int[] ints(Use use, int length) {
        int at = 2 * use.ordinal();
        int[] last = ints[at];
        if (last != null && last.length == length) {
            return last;
        }
        int[] other = ints[at + 1];
        int[] kept = other != null && other.length == length ? other : new int[length];
        ints[at + 1] = last;
        ints[at] = kept;
        return kept;
    }

    /** The decision's buffer when its load view has buffers, else a new array. */
    public static double[] doubles(LoadView load, Use use, int length) {
        DecisionBuffers buffers = load instanceof ClusterLoad decision ? decision.buffers() : null;
        return buffers == null ? new double[length] : buffers.doubles(use, length);
    }

    /** {@link #doublesAtLeast(Use, int)} when the load view has buffers, else a new array of {@code length}. */
    public static double[] doublesAtLeast(LoadView load, Use use, int length) {
        DecisionBuffers buffers = load instanceof ClusterLoad decision ? decision.buffers() : null;
        return buffers == null ? new double[length] : buffers.doublesAtLeast(use, length);
    }

    public static boolean[] flags(LoadView load, Use use, int length) {
        DecisionBuffers buffers = load instanceof ClusterLoad decision ? decision.buffers() : null;
        return buffers == null ? new boolean[length] : buffers.flags(use, length);
    }

    /** The decision's empty subset of {@code of} for this use when its load view has buffers, else a new one. */
    public static PodSubset subset(LoadView load, Use use, List<Pod> of, int capacity) {
        DecisionBuffers buffers = load instanceof ClusterLoad decision ? decision.buffers() : null;
        return buffers == null ? new PodSubset().reset(of, capacity) : buffers.subset(use, of, capacity);
    }

    public static int[] ints(LoadView load, Use use, int length) {
        DecisionBuffers buffers = load instanceof ClusterLoad decision ? decision.buffers() : null;
        return buffers == null ? new int[length] : buffers.ints(use, length);
    }

    /**
     * Scores a decision's result may keep (a side's scores, the final scores): the decision's buffer when nobody will
     * read its score table ({@link #scoresKept} false), else a new array the table can keep.
     */
    public static double[] scores(LoadView load, Use use, int length) {
        return scoresKept(load) ? new double[length] : ((ClusterLoad) load).buffers().doubles(use, length);
    }

    /**
     * Whether this decision's score arrays are its own (so its score table may read them after the decision), rather
     * than the model's working arrays, which the next decision overwrites.
     */
    public static boolean scoresKept(LoadView load) {
        return !(load instanceof ClusterLoad decision) || decision.buffers() == null || decision.keepsScores();
    }
}
