package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.function.ToDoubleFunction;
import java.util.random.RandomGenerator;

/**
 * Scores of one side (prefill or decode), aligned with the list they were made over. The pair pickers read them by
 * position ({@link #alignedTo} the candidates' roleset-ordered side, then {@link #at} and {@link #lowest} over each
 * roleset's positions), so a decision looks no pod up. Read by pod ({@link #score}: the x-pd-decision score table, and
 * tests), a lookup first tries the pod after the last one found and that one again, one comparison when pods are read
 * in list order; any other order falls back to an identity table over primitive doubles, built on first need.
 */
public final class ScoredPods implements ToDoubleFunction<Pod> {
    private final List<Pod> pods;
    private final double[] values;
    /** Where the next lookup looks first; a stale value (another thread's) only costs a miss. */
    private int cursor;
    private volatile Table table;

    private ScoredPods(List<Pod> pods, double[] values) {
        this.pods = pods;
        this.values = values;
    }

    /** @param values the scores, aligned with {@code pods}; kept, not copied */
    public static ScoredPods of(List<Pod> pods, double[] values) {
        return new ScoredPods(pods, values);
    }

    /** {@link #score}: lets a side's scores be handed to {@code LowestPicker} as they are, without a lambda per call. */
    @Override
    public double applyAsDouble(Pod pod) {
        return score(pod);
    }

    /**
     * These scores by position in {@code side}: this when they were made over that very list, else a copy looked up
     * pod by pod (a picker handed scores of another list; NaN for a pod not scored).
     */
    public ScoredPods alignedTo(List<Pod> side) {
        if (side == pods) {
            return this;
        }
        double[] aligned = new double[side.size()];
        for (int i = 0; i < aligned.length; i++) {
            aligned[i] = score(side.get(i));
        }
        return new ScoredPods(side, aligned);
    }

    /** How many positions: the size of the list these scores were made over. */
    public int size() {
        return pods.size();
    }

    /** The score of the pod at {@code position} in the list these scores were made over. */
    public double at(int position) {
        return values[position];
    }

    /** The pod at {@code position} in the list these scores were made over. */
    public Pod pod(int position) {
        return pods.get(position);
    }

    /**
     * The position of the lowest score in {@code [from, to)} (NaN = unscored, skipped), a uniformly random one among
     * equals, or -1 when none is scored: {@code LowestPicker}'s choice over those pods, drawing the same random numbers.
     */
    public int lowest(int from, int to, RandomGenerator random) {
        return lowest(from, to, null, random);
    }

    /** As {@link #lowest(int, int, RandomGenerator)}, among the positions {@code eligible} accepts (null: all). */
    public int lowest(int from, int to, IntPredicate eligible, RandomGenerator random) {
        int best = -1;
        int ties = 0;
        for (int i = from; i < to; i++) {
            double s = values[i];
            if (Double.isNaN(s) || eligible != null && !eligible.test(i)) {
                continue;
            }
            if (best < 0 || s < values[best]) {
                best = i;
                ties = 1;
            } else if (s == values[best] && random.nextInt(++ties) == 0) {
                best = i;
            }
        }
        return best;
    }

    /** The pod's score, or NaN when it was not scored. */
    public double score(Pod pod) {
        int n = pods.size();
        int next = Math.min(cursor, n);
        int i;
        if (next < n && pods.get(next) == pod) {
            i = next; // read in list order: the score table
        } else if (next > 0 && pods.get(next - 1) == pod) {
            i = next - 1; // the same pod again
        } else {
            Table lookup = table;
            if (lookup == null) {
                lookup = new Table(pods);
                table = lookup;
            }
            i = lookup.indexOf(pod);
            if (i < 0) {
                return Double.NaN;
            }
        }
        cursor = i + 1;
        return values[i];
    }

    /** Pod → index, open addressing by identity hash (load factor ≤ 0.5). Immutable once built. */
    private static final class Table {
        private final Pod[] keys;
        private final int[] indexes;
        private final int mask;

        Table(List<Pod> pods) {
            int capacity = Integer.highestOneBit(Math.max(4, pods.size() * 2 - 1)) << 1;
            keys = new Pod[capacity];
            indexes = new int[capacity];
            mask = capacity - 1;
            for (int i = 0; i < pods.size(); i++) {
                Pod pod = pods.get(i);
                int slot = System.identityHashCode(pod) & mask;
                while (keys[slot] != null && keys[slot] != pod) {
                    slot = (slot + 1) & mask;
                }
                keys[slot] = pod;
                indexes[slot] = i;
            }
        }

        int indexOf(Pod pod) {
            int slot = System.identityHashCode(pod) & mask;
            while (keys[slot] != null) {
                if (keys[slot] == pod) {
                    return indexes[slot];
                }
                slot = (slot + 1) & mask;
            }
            return -1;
        }
    }
}
