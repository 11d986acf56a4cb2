package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import java.util.List;

/**
 * Scores of one side (prefill or decode), looked up by pod identity. An open-addressing table over primitive
 * doubles: a decision at scale scores thousands of pods, and a map of boxed scores would allocate for each.
 */
public final class ScoredPods {
    private final Pod[] keys;
    private final double[] values;
    private final int mask;

    private ScoredPods(int size) {
        int capacity = Integer.highestOneBit(Math.max(4, size * 2 - 1)) << 1; // load factor ≤ 0.5
        keys = new Pod[capacity];
        values = new double[capacity];
        mask = capacity - 1;
    }

    public static ScoredPods of(List<Pod> pods, double[] values) {
        ScoredPods scored = new ScoredPods(pods.size());
        for (int i = 0; i < pods.size(); i++) {
            scored.put(pods.get(i), values[i]);
        }
        return scored;
    }

    private void put(Pod pod, double value) {
        int slot = System.identityHashCode(pod) & mask;
        while (keys[slot] != null && keys[slot] != pod) {
            slot = (slot + 1) & mask;
        }
        keys[slot] = pod;
        values[slot] = value;
    }

    /** The pod's score, or NaN when it was not scored. */
    public double score(Pod pod) {
        int slot = System.identityHashCode(pod) & mask;
        while (keys[slot] != null) {
            if (keys[slot] == pod) {
                return values[slot];
            }
            slot = (slot + 1) & mask;
        }
        return Double.NaN;
    }
}
