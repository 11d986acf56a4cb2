package io.pdgateway.core.routing.fastpath;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.FastPath;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.PdCandidatesNarrowing;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Step;
import io.pdgateway.core.routing.pick.LowestPicker;
import io.pdgateway.core.routing.score.InFlightCounts;
import java.util.List;
import java.util.Optional;

/**
 * Spec step 1: when the in-flight prefill counts spread by more than AIBRIX_PREFILL_LOAD_IMBALANCE_MIN_SPREAD
 * (strictly), the least-loaded prefill pod takes the request and the decode side aligns to its roleset.
 */
public final class PrefillImbalanceFastPath implements FastPath {
    public static final String NAME = "prefill-imbalance";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<Result> apply(RoutingContext context, PdCandidates candidates) {
        List<Pod> prefills = PdCandidatesNarrowing.side(candidates, true);
        if (prefills.size() < 2) {
            return Optional.empty();
        }
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (double read : InFlightCounts.of(prefills, context.load())) {
            int count = (int) read;
            min = Math.min(min, count);
            max = Math.max(max, count);
        }
        if (max - min <= context.request().knobs().prefillLoadImbalanceMinSpread()) {
            return Optional.empty();
        }
        Pod chosen = LowestPicker.lowest(prefills, pod -> context.load().inFlightPrefills(pod), context.random());
        return Optional.of(new Narrowing(PdCandidatesNarrowing.to(candidates, chosen), Step.PREFILL_IMBALANCE,
                "prefill spread " + (max - min) + " > " + context.request().knobs().prefillLoadImbalanceMinSpread()
                        + ": " + chosen.name()));
    }
}
