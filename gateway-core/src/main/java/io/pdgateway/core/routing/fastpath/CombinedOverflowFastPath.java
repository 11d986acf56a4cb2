package io.pdgateway.core.routing.fastpath;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.FastPath;
import io.pdgateway.core.routing.LoadView;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.PdCandidatesNarrowing;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Step;
import io.pdgateway.core.routing.Strategy;
import io.pdgateway.core.routing.Verdict;
import io.pdgateway.core.routing.pick.LowestPicker;
import java.util.List;
import java.util.Optional;

/**
 * Spec step 0, shouldPickCombined(): when a bucket-matched pair exists but its prefill or decode pods are heavily
 * loaded while a standard pod is nearly idle, the standard pod serves. Load is the queue-drain score
 * s = queued / drain_rate (reference §3 step C); an empty queue is 0, so a cold standard pod is idle.
 */
public final class CombinedOverflowFastPath implements FastPath {
    public static final String NAME = "combined-overflow";
    /** Reference §3: a standard pod with s below this is idle enough to take overflow. */
    static final double COMBINED_LOW = 0.25;
    /** Reference §3: a PD pod with s above this is heavily loaded. */
    static final double PD_HIGH = 1.0;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<Result> apply(RoutingContext context, PdCandidates candidates) {
        LoadView load = context.load();
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
        Pod pod = LowestPicker.lowest(standard, p -> score(p, load), context.random());
        if (pod == null) {
            return Optional.empty();
        }
        return Optional.of(new Decided(RouteDecision.single(pod, Verdict.STANDARD_FALLBACK, Strategy.PD,
                Step.COMBINED_OVERFLOW, "PD pods heavily loaded while standard pod " + pod.name() + " is idle")));
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
