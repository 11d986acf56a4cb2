package io.pdgateway.core.routing;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Roleset;
import io.pdgateway.core.routing.fastpath.CombinedOverflow;
import io.pdgateway.core.routing.fastpath.DecodeImbalanceFastPath;
import io.pdgateway.core.routing.fastpath.PrefillImbalanceFastPath;
import io.pdgateway.core.routing.filter.ExcludedPodsFilter;
import io.pdgateway.core.routing.filter.PromptLengthBucketFilter;
import io.pdgateway.core.routing.filter.RolesetCompletenessFilter;
import io.pdgateway.core.routing.pick.FinalPairPicker;
import io.pdgateway.core.routing.pick.LeastRunningPodPicker;
import io.pdgateway.core.routing.score.PrefillStddevFilter;
import io.pdgateway.core.routing.score.ScoringPolicies;
import io.pdgateway.core.spec.SpecPolicies;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The pd strategy, the spec's "Pod Selection Algorithm": step 0 (bucketing, standard-pod fallback and overflow),
 * steps 1-2 (load-imbalance fast paths), steps 3-4 (prefill and decode scoring) and step 5 (the pair). Pure:
 * everything it reads comes in the {@link RoutingContext}. It checks each stage's contract and names the stage that
 * broke it, so a bad stage fails loudly in tests instead of routing somewhere odd.
 */
public final class PdCascade {
    private final boolean bucketing;
    private final List<PodFilter> filters;
    private final FastPath prefillFastPath = new PrefillImbalanceFastPath();
    private final FastPath decodeFastPath = new DecodeImbalanceFastPath();
    private final PairPicker picker = new FinalPairPicker();

    public PdCascade(boolean bucketing) {
        this.bucketing = bucketing;
        List<PodFilter> list = new ArrayList<>();
        list.add(new ExcludedPodsFilter());
        list.add(new RolesetCompletenessFilter());
        if (bucketing) {
            list.add(new PromptLengthBucketFilter());
        }
        this.filters = List.copyOf(list);
    }

    public RouteDecision route(RoutingContext context, ModelPods model) {
        RouteRequest request = context.request();
        PdCandidates candidates = initialCandidates(request, model);
        boolean hadCompletePair = false;
        List<String> rejections = new ArrayList<>();
        for (PodFilter filter : filters) {
            PodFilter.Result result = filter.filter(context, candidates);
            checkSubset(filter.name(), candidates, result.survivors());
            if (filter instanceof RolesetCompletenessFilter) {
                hadCompletePair = result.survivors().hasCompletePair();
            }
            rejections.addAll(result.rejections());
            candidates = result.survivors();
        }
        if (!candidates.hasCompletePair()) {
            return fallback(context, candidates, hadCompletePair, rejections);
        }
        if (bucketing) {
            Optional<Pod> overflow = CombinedOverflow.pick(candidates, context.load(), context.random());
            if (overflow.isPresent()) {
                return RouteDecision.single(overflow.get(), Verdict.STANDARD_FALLBACK, "pd", Step.COMBINED_OVERFLOW,
                        "PD pods heavily loaded while standard pod " + overflow.get().name() + " is idle");
            }
        }
        List<String> steps = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        candidates = fastPath(prefillFastPath, context, candidates, steps, reasons);
        // Spec, token_load decode side: its ledger replaces what the decode fast path picks by.
        if (!SpecPolicies.TOKEN_LOAD.equals(request.knobs().decodeScorePolicy())) {
            candidates = fastPath(decodeFastPath, context, candidates, steps, reasons);
        }
        candidates = bucketBand(context, candidates, steps, reasons);
        List<Pod> prefills = PdCandidatesNarrowing.side(candidates, true);
        List<Pod> decodes = PdCandidatesNarrowing.side(candidates, false);
        ScoredPods prefillScores = ScoredPods.of(prefills, prefillScores(context, prefills));
        ScoredPods decodeScores = ScoredPods.of(decodes, decodeScores(context, decodes));
        RouteDecision decision = picker.pick(context, candidates, prefillScores, decodeScores);
        if (decision.isPd() && !(containsSame(prefills, decision.prefill()) && containsSame(decodes, decision.target()))) {
            throw new IllegalStateException("stage " + picker.name() + " picked a pod that is not a candidate");
        }
        return decision.afterSteps(String.join(",", steps), String.join("; ", reasons));
    }

    private static PdCandidates fastPath(FastPath fastPath, RoutingContext context, PdCandidates candidates,
            List<String> steps, List<String> reasons) {
        Optional<FastPath.Narrowing> narrowing = fastPath.apply(context, candidates);
        if (narrowing.isEmpty()) {
            return candidates;
        }
        checkSubset(fastPath.name(), candidates, narrowing.get().candidates());
        steps.add(narrowing.get().step());
        reasons.add(narrowing.get().reason());
        return narrowing.get().candidates();
    }

    /**
     * Step 2b, adaptive bucket serving: when the plan bands this prompt length to a roleset that still has both a
     * prefill and a decode candidate after the fast paths, only that roleset remains; otherwise nothing changes.
     */
    private PdCandidates bucketBand(RoutingContext context, PdCandidates candidates, List<String> steps,
            List<String> reasons) {
        if (!bucketing || context.bucketPlan() == null) {
            return candidates;
        }
        String banded = context.bucketPlan().rolesetFor(context.request().model(), context.request().promptTokens());
        if (banded == null || candidates.rolesets().size() == 1 && candidates.rolesets().get(0).name().equals(banded)) {
            return candidates;
        }
        for (Roleset roleset : candidates.rolesets()) {
            if (roleset.name().equals(banded) && roleset.isComplete()) {
                steps.add(Step.BUCKET_SERVE);
                reasons.add("prompt length " + context.request().promptTokens() + " is banded to " + banded);
                return new PdCandidates(List.of(roleset), candidates.standard());
            }
        }
        return candidates;
    }

    /** Step 3: the standard-deviation filter, then the profile's prefill policy; skipped pods score NaN. */
    private static double[] prefillScores(RoutingContext context, List<Pod> prefills) {
        boolean[] skipped = PrefillStddevFilter.skipped(prefills, context.load(), context.stddevFactor());
        List<Pod> scored = new ArrayList<>(prefills.size());
        for (int i = 0; i < prefills.size(); i++) {
            if (!skipped[i]) {
                scored.add(prefills.get(i));
            }
        }
        Scorer scorer = ScoringPolicies.prefill(context.request().knobs().prefillScorePolicy());
        double[] values = checkedScores(scorer, context, scored);
        double[] scores = new double[prefills.size()];
        for (int i = 0, j = 0; i < prefills.size(); i++) {
            scores[i] = skipped[i] ? Double.NaN : values[j++];
        }
        return scores;
    }

    /**
     * Step 4: pods the gateway has never routed to get the cold-start score 1 + pending when a sibling already has a
     * running count; the rest are scored by the policy, and a NaN is retried once with load_balancing.
     */
    private static double[] decodeScores(RoutingContext context, List<Pod> decodes) {
        String policy = context.request().knobs().decodeScorePolicy();
        boolean coldStartGate = false;
        if (!SpecPolicies.TOKEN_LOAD.equals(policy)) {
            for (Pod pod : decodes) {
                coldStartGate |= context.load().hasRunningMetric(pod);
            }
        }
        List<Pod> warm = new ArrayList<>(decodes.size());
        for (Pod pod : decodes) {
            if (!coldStartGate || context.load().hasRunningMetric(pod)) {
                warm.add(pod);
            }
        }
        double[] values = checkedScores(ScoringPolicies.decode(policy), context, warm);
        double[] fallback = null;
        double[] scores = new double[decodes.size()];
        for (int i = 0, j = 0; i < decodes.size(); i++) {
            Pod pod = decodes.get(i);
            if (coldStartGate && !context.load().hasRunningMetric(pod)) {
                scores[i] = 1.0 + context.load().pendingDecodes(pod);
                continue;
            }
            double value = values[j];
            if (Double.isNaN(value)) {
                if (fallback == null) {
                    fallback = checkedScores(ScoringPolicies.loadBalancing(), context, warm);
                }
                value = fallback[j];
            }
            scores[i] = value;
            j++;
        }
        return scores;
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

    private static RouteDecision fallback(RoutingContext context, PdCandidates candidates, boolean hadCompletePair,
            List<String> rejections) {
        RouteRequest request = context.request();
        if (!candidates.standard().isEmpty()) {
            Pod pod = LeastRunningPodPicker.pick(candidates.standard(), context.load(), context.random());
            return RouteDecision.single(pod, Verdict.STANDARD_FALLBACK, "pd", Step.BUCKET_FALLBACK,
                    "no complete prefill/decode pair for prompt length " + request.promptTokens()
                            + "; standard pod " + pod.name());
        }
        String why = rejections.isEmpty() ? "" : " (" + String.join("; ", rejections) + ")";
        if (hadCompletePair) {
            return RouteDecision.none(Verdict.NO_BUCKET_MATCH, "pd", Step.NO_CANDIDATE,
                    "no prompt-length bucket matches prompt length " + request.promptTokens()
                            + " and no standard pod covers it" + why);
        }
        return RouteDecision.none(Verdict.NO_COMPLETE_PAIR, "pd", Step.NO_CANDIDATE,
                "no complete prefill/decode pair and no standard pod available" + why);
    }

    /**
     * A stage may only narrow: every pod it returns must be one of the pods it was given (by identity), and rolesets
     * keep their order, so one walk over both lists checks it in linear time.
     */
    private static void checkSubset(String stage, PdCandidates before, PdCandidates after) {
        int next = 0;
        for (Roleset roleset : after.rolesets()) {
            Roleset original = null;
            while (next < before.rolesets().size()) {
                Roleset r = before.rolesets().get(next++);
                if (r.name().equals(roleset.name())) {
                    original = r;
                    break;
                }
            }
            if (original == null || !containsAll(original.prefills(), roleset.prefills())
                    || !containsAll(original.decodes(), roleset.decodes())) {
                throw new IllegalStateException("stage " + stage + " added pods to roleset " + roleset.name());
            }
        }
        if (!containsAll(before.standard(), after.standard())) {
            throw new IllegalStateException("stage " + stage + " added a standard pod");
        }
    }

    private static boolean containsAll(List<Pod> pods, List<Pod> subset) {
        for (int i = 0; i < subset.size(); i++) {
            if (!containsSame(pods, subset.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean containsSame(List<Pod> pods, Pod pod) {
        for (int i = 0; i < pods.size(); i++) {
            if (pods.get(i) == pod) {
                return true;
            }
        }
        return false;
    }

    private static double[] checkedScores(Scorer scorer, RoutingContext context, List<Pod> pods) {
        double[] scores = scorer.score(context, pods);
        if (scores == null || scores.length != pods.size()) {
            throw new IllegalStateException("stage " + scorer.name() + " returned " + (scores == null ? "null"
                    : scores.length + " scores") + " for " + pods.size() + " pods");
        }
        return scores;
    }
}
