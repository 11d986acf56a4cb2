package io.pdgateway.core.routing;

/**
 * Working arrays of a model's decisions, reused from one decision to the next instead of allocated per decision
 * (thousands of pods make each a few to tens of kilobytes). A decision asks for an array by its use and exact length
 * and gets the one kept for that use when the length matches, else a new one that is kept from then on. Contents are
 * whatever the last user left: a user writes every element before reading any. Only for arrays that do not outlive the
 * stage that fills them (never a side's scores: the lazily built score table keeps those).
 *
 * <p>Not thread-safe: one per model, used under the model's lock, one decision at a time.
 */
public final class DecisionBuffers {
    /** What an array is for: two uses never share one, so stages of one decision cannot overwrite each other's. */
    public enum Use {
        DECODE_COUNT, DECODE_THROUGHPUT, DECODE_FREE, DECODE_OBSERVED, DECODE_THROUGHPUT_OBSERVED,
        PREFILL_INFLIGHT, PREFILL_KEPT, PREFIX_PERCENT, DECODE_RATE, DECODE_WARM, DECODE_COLD, SUBSET_OTHERS
    }

    private final double[][] doubles = new double[Use.values().length][];
    private final boolean[][] flags = new boolean[Use.values().length][];
    private final int[][] ints = new int[Use.values().length][];

    public double[] doubles(Use use, int length) {
        double[] kept = doubles[use.ordinal()];
        if (kept == null || kept.length != length) {
            kept = new double[length];
            doubles[use.ordinal()] = kept;
        }
        return kept;
    }

    public boolean[] flags(Use use, int length) {
        boolean[] kept = flags[use.ordinal()];
        if (kept == null || kept.length != length) {
            kept = new boolean[length];
            flags[use.ordinal()] = kept;
        }
        return kept;
    }

    public int[] ints(Use use, int length) {
        int[] kept = ints[use.ordinal()];
        if (kept == null || kept.length != length) {
            kept = new int[length];
            ints[use.ordinal()] = kept;
        }
        return kept;
    }

    /** The decision's buffer when its load view has buffers, else a new array. */
    public static double[] doubles(LoadView load, Use use, int length) {
        DecisionBuffers buffers = load instanceof ClusterLoad decision ? decision.buffers() : null;
        return buffers == null ? new double[length] : buffers.doubles(use, length);
    }

    public static boolean[] flags(LoadView load, Use use, int length) {
        DecisionBuffers buffers = load instanceof ClusterLoad decision ? decision.buffers() : null;
        return buffers == null ? new boolean[length] : buffers.flags(use, length);
    }

    public static int[] ints(LoadView load, Use use, int length) {
        DecisionBuffers buffers = load instanceof ClusterLoad decision ? decision.buffers() : null;
        return buffers == null ? new int[length] : buffers.ints(use, length);
    }
}
