package io.pdgateway.core.routing.fastpath;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Roleset;
import io.pdgateway.core.routing.FastPath;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RouteRequest;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Step;
import io.pdgateway.core.routing.Strategy;
import io.pdgateway.core.routing.Verdict;
import io.pdgateway.core.routing.pick.LeastRunningPodPicker;
import java.util.Optional;

/**
 * Spec step 0: when no complete prefill/decode pair survived the filters (or the body is one no pair can carry), the
 * standard pod with the fewest running requests serves the whole request; with none either, nothing can serve. Which
 * of the two 503s that is depends on whether a complete pair existed before bucketing removed it.
 */
public final class NoCompletePairFallback implements FastPath {
    public static final String NAME = "no-complete-pair";

    private final boolean bucketing;

    /** @param bucketing AIBRIX_PROMPT_LENGTH_BUCKETING: a missing pair may be a prompt outside every bucket */
    public NoCompletePairFallback(boolean bucketing) {
        this.bucketing = bucketing;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<Result> apply(RoutingContext context, PdCandidates candidates) {
        if (candidates.hasCompletePair()) {
            return Optional.empty();
        }
        RouteRequest request = context.request();
        String noPair = request.pairRefusal() != null ? "no prefill/decode pair can carry the body ("
                + request.pairRefusal() + ")" : "no complete prefill/decode pair for prompt length "
                + request.promptTokens();
        if (!candidates.standard().isEmpty()) {
            Pod pod = LeastRunningPodPicker.pick(candidates.standard(), context.load(), context.random());
            return decided(RouteDecision.single(pod, Verdict.STANDARD_FALLBACK, Strategy.PD, Step.BUCKET_FALLBACK,
                    noPair + "; standard pod " + pod.name()));
        }
        if (request.pairRefusal() != null) {
            return decided(RouteDecision.none(Verdict.NO_COMPLETE_PAIR, Strategy.PD, Step.NO_CANDIDATE,
                    noPair + " and no standard pod is available"));
        }
        if (bucketing && hadCompletePair(context)) {
            return decided(RouteDecision.none(Verdict.NO_BUCKET_MATCH, Strategy.PD, Step.NO_CANDIDATE,
                    "no prompt-length bucket matches prompt length " + request.promptTokens()
                            + " and no standard pod covers it"));
        }
        return decided(RouteDecision.none(Verdict.NO_COMPLETE_PAIR, Strategy.PD, Step.NO_CANDIDATE,
                "no complete prefill/decode pair and no standard pod available"));
    }

    /** A roleset of the model that is complete with the pods this request may use: bucketing is what removed it. */
    private static boolean hadCompletePair(RoutingContext context) {
        for (Roleset roleset : context.model().rolesets().values()) {
            if (anyAllowed(roleset.prefills(), context.request()) && anyAllowed(roleset.decodes(), context.request())) {
                return true;
            }
        }
        return false;
    }

    private static boolean anyAllowed(java.util.List<Pod> pods, RouteRequest request) {
        for (Pod pod : pods) {
            if (request.allows(pod)) {
                return true;
            }
        }
        return false;
    }

    private static Optional<Result> decided(RouteDecision decision) {
        return Optional.of(new Decided(decision));
    }
}
