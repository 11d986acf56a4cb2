package io.pdgateway.core.routing.fastpath;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.LoadView;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.PdCandidatesNarrowing;
import io.pdgateway.core.routing.pick.LowestPicker;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Spec step 0, shouldPickCombined(): when a bucket-matched pair exists but its prefill or decode pods are heavily
 * loaded while a standard pod is nearly idle, the standard pod serves. Load is the queue-drain score
 * s = queued / drain_rate (reference §3 step C); an empty queue is 0, so a cold standard pod is idle.
 */
public final class CombinedOverflow {
    /** Reference §3: a standard pod with s below this is idle enough to take overflow. */
    static final double COMBINED_LOW = 0.25;
    /** Reference §3: a PD pod with s above this is heavily loaded. */
    static final double PD_HIGH = 1.0;

    private CombinedOverflow() {}

    /** The standard pod to use instead of the pair, or empty when PD should serve. */
    public static Optional<Pod> pick(PdCandidates candidates, LoadView load, RandomGenerator random) {
        List<Pod> standard = candidates.standard();
        if (standard.isEmpty()) {
            return Optional.empty();
        }
        boolean combinedLow = false;
        for (Pod pod : standard) {
            combinedLow |= score(pod, load) < COMBINED_LOW;
        }
        if (!combinedLow) {
            return Optional.empty();
        }
        boolean pdHigh = anyHigh(PdCandidatesNarrowing.side(candidates, true), load)
                || anyHigh(PdCandidatesNarrowing.side(candidates, false), load);
        if (!pdHigh) {
            return Optional.empty();
        }
        // scoreCombinedPods: the standard pod with the lowest s; NaN scores are skipped.
        return Optional.ofNullable(LowestPicker.lowest(standard, pod -> score(pod, load), random));
    }

    private static boolean anyHigh(List<Pod> pods, LoadView load) {
        for (Pod pod : pods) {
            if (score(pod, load) > PD_HIGH) {
                return true;
            }
        }
        return false;
    }

    /**
     * queued / drain rate: +Inf when work waits on a pod that has not drained yet. A pod with nothing queued scores 0
     * whatever its drain history: upstream divides 0 by 0 and gets NaN, so a standard pod that has never served
     * anything never counts as idle and never takes overflow, which is the opposite of what the spec describes.
     */
    static double score(Pod pod, LoadView load) {
        double queued = load.metrics(pod).queued();
        return queued == 0 ? 0 : queued / load.drainRate(pod);
    }
}
