package io.pdgateway.core.routing.pick;

import io.pdgateway.core.model.Pod;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.random.RandomGenerator;

/**
 * The one way the cascade picks "the lowest": the smallest score wins, NaN scores are skipped, and among equal
 * scores each is equally likely (reservoir sampling over the ties), so no pod is favoured by its list position.
 */
public final class LowestPicker {
    private LowestPicker() {}

    /**
     * The lowest-scoring pod, or null when every score is NaN or the list is empty. A side's {@code ScoredPods} is itself
     * the score function, so the pickers call this once per roleset without allocating.
     */
    public static Pod lowest(List<Pod> pods, ToDoubleFunction<Pod> score, RandomGenerator random) {
        Pod best = null;
        double bestScore = Double.POSITIVE_INFINITY;
        int ties = 0;
        for (int i = 0; i < pods.size(); i++) {
            Pod pod = pods.get(i);
            double s = score.applyAsDouble(pod);
            if (Double.isNaN(s)) {
                continue;
            }
            if (best == null || s < bestScore) {
                best = pod;
                bestScore = s;
                ties = 1;
            } else if (s == bestScore && random.nextInt(++ties) == 0) {
                best = pod;
            }
        }
        return best;
    }

    /** The index of the lowest value among the eligible ones, or -1 when none is eligible. */
    public static int lowestIndex(double[] values, boolean[] eligible, RandomGenerator random) {
        int best = -1;
        int ties = 0;
        for (int i = 0; i < values.length; i++) {
            if (!eligible[i] || Double.isNaN(values[i])) {
                continue;
            }
            if (best < 0 || values[i] < values[best]) {
                best = i;
                ties = 1;
            } else if (values[i] == values[best] && random.nextInt(++ties) == 0) {
                best = i;
            }
        }
        return best;
    }
}
