package io.pdgateway.core.routing;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Roleset;
import io.pdgateway.core.routing.filter.PromptLengthBucketFilter;
import io.pdgateway.core.routing.filter.RolesetCompletenessFilter;
import io.pdgateway.core.routing.pick.FinalPairPicker;
import io.pdgateway.core.routing.pick.LeastRunningPodPicker;
import io.pdgateway.core.routing.score.InFlightPrefillScorer;
import io.pdgateway.core.routing.score.RunningRequestsDecodeScorer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * The pd strategy: filters, then the standard-pod fallback when no complete pair is left, then scoring and the
 * pair pick. Pure: everything it reads comes in as arguments. It checks each stage's contract and names the
 * stage that broke it, so a bad stage fails loudly in tests instead of routing somewhere odd.
 */
public final class PdCascade {
    private final boolean bucketing;
    private final List<PodFilter> filters;
    private final Scorer prefillScorer;
    private final Scorer decodeScorer;
    private final PairPicker picker;

    public PdCascade(boolean bucketing, List<PodFilter> filters, Scorer prefillScorer, Scorer decodeScorer,
            PairPicker picker) {
        this.bucketing = bucketing;
        this.filters = List.copyOf(filters);
        this.prefillScorer = prefillScorer;
        this.decodeScorer = decodeScorer;
        this.picker = picker;
    }

    /** The walking-skeleton cascade: completeness, bucketing when enabled, least-request on both sides. */
    public static PdCascade standard(boolean bucketing) {
        List<PodFilter> filters = new ArrayList<>();
        filters.add(new RolesetCompletenessFilter());
        if (bucketing) {
            filters.add(new PromptLengthBucketFilter());
        }
        return new PdCascade(bucketing, filters, new InFlightPrefillScorer(), new RunningRequestsDecodeScorer(),
                new FinalPairPicker());
    }

    public RouteDecision route(RouteRequest request, ModelPods model, LoadView load, RandomGenerator random) {
        PdCandidates candidates = initialCandidates(request, model);
        boolean hadCompletePair = false;
        List<String> rejections = new ArrayList<>();
        for (PodFilter filter : filters) {
            PodFilter.Result result = filter.filter(request, candidates);
            checkSubset(filter, candidates, result.survivors());
            if (filter instanceof RolesetCompletenessFilter) {
                hadCompletePair = result.survivors().hasCompletePair();
            }
            rejections.addAll(result.rejections());
            candidates = result.survivors();
        }
        if (!candidates.hasCompletePair()) {
            return fallback(request, candidates, hadCompletePair, rejections, load, random);
        }
        List<Pod> prefills = new ArrayList<>();
        List<Pod> decodes = new ArrayList<>();
        for (Roleset roleset : candidates.rolesets()) {
            prefills.addAll(roleset.prefills());
            decodes.addAll(roleset.decodes());
        }
        ScoredPods prefillScores = ScoredPods.of(prefills, checkedScores(prefillScorer, request, prefills, load));
        ScoredPods decodeScores = ScoredPods.of(decodes, checkedScores(decodeScorer, request, decodes, load));
        RouteDecision decision = picker.pick(request, candidates, prefillScores, decodeScores, random);
        if (decision.isPd() && !(prefills.contains(decision.prefill()) && decodes.contains(decision.target()))) {
            throw new IllegalStateException("stage " + picker.name() + " picked a pod that is not a candidate");
        }
        return decision;
    }

    private PdCandidates initialCandidates(RouteRequest request, ModelPods model) {
        List<Pod> standard = new ArrayList<>();
        // Spec "Step 3 — Add Standard Inference Pods": standard pods are candidates only with bucketing enabled.
        if (bucketing) {
            for (Pod pod : model.pods()) {
                if (pod.isStandard(request.profile())) {
                    standard.add(pod);
                }
            }
        }
        return new PdCandidates(new ArrayList<>(model.rolesets().values()), standard);
    }

    private static RouteDecision fallback(RouteRequest request, PdCandidates candidates, boolean hadCompletePair,
            List<String> rejections, LoadView load, RandomGenerator random) {
        if (!candidates.standard().isEmpty()) {
            Pod pod = LeastRunningPodPicker.pick(candidates.standard(), load, random);
            return RouteDecision.single(pod, Verdict.STANDARD_FALLBACK, "pd",
                    "no complete prefill/decode pair for prompt length " + request.promptTokens()
                            + "; standard pod " + pod.name());
        }
        String why = rejections.isEmpty() ? "" : " (" + String.join("; ", rejections) + ")";
        if (hadCompletePair) {
            return RouteDecision.none(Verdict.NO_BUCKET_MATCH, "pd", "no prompt-length bucket matches prompt length "
                    + request.promptTokens() + " and no standard pod covers it" + why);
        }
        return RouteDecision.none(Verdict.NO_COMPLETE_PAIR, "pd",
                "no complete prefill/decode pair and no standard pod available" + why);
    }

    private static void checkSubset(PodFilter filter, PdCandidates before, PdCandidates after) {
        Map<Pod, Boolean> seen = new IdentityHashMap<>();
        for (Roleset roleset : before.rolesets()) {
            roleset.prefills().forEach(p -> seen.put(p, true));
            roleset.decodes().forEach(p -> seen.put(p, true));
        }
        before.standard().forEach(p -> seen.put(p, true));
        for (Roleset roleset : after.rolesets()) {
            for (Pod pod : roleset.prefills()) {
                requireSeen(filter, seen, pod);
            }
            for (Pod pod : roleset.decodes()) {
                requireSeen(filter, seen, pod);
            }
        }
        for (Pod pod : after.standard()) {
            requireSeen(filter, seen, pod);
        }
    }

    private static void requireSeen(PodFilter filter, Map<Pod, Boolean> seen, Pod pod) {
        if (!seen.containsKey(pod)) {
            throw new IllegalStateException("stage " + filter.name() + " added pod " + pod.id());
        }
    }

    private static double[] checkedScores(Scorer scorer, RouteRequest request, List<Pod> pods, LoadView load) {
        double[] scores = scorer.score(request, pods, load);
        if (scores == null || scores.length != pods.size()) {
            throw new IllegalStateException("stage " + scorer.name() + " returned " + (scores == null ? "null"
                    : scores.length + " scores") + " for " + pods.size() + " pods");
        }
        for (int i = 0; i < scores.length; i++) {
            if (Double.isNaN(scores[i])) {
                throw new IllegalStateException("stage " + scorer.name() + " scored " + pods.get(i).id() + " NaN");
            }
        }
        return scores;
    }
}
