package io.pdgateway.core.routing;

import io.pdgateway.core.config.RoutingSettings;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Roleset;
import io.pdgateway.core.routing.fastpath.BucketBandFastPath;
import io.pdgateway.core.routing.fastpath.CombinedOverflowFastPath;
import io.pdgateway.core.routing.fastpath.DecodeImbalanceFastPath;
import io.pdgateway.core.routing.fastpath.NoCompletePairFallback;
import io.pdgateway.core.routing.fastpath.PrefillImbalanceFastPath;
import io.pdgateway.core.routing.filter.EjectedPodsFilter;
import io.pdgateway.core.routing.filter.ExcludedPodsFilter;
import io.pdgateway.core.routing.filter.PromptLengthBucketFilter;
import io.pdgateway.core.routing.filter.RolesetCompletenessFilter;
import io.pdgateway.core.routing.filter.StandardPodGateFilter;
import io.pdgateway.core.routing.pick.PolicyPairPicker;
import io.pdgateway.core.routing.score.ColdStartScorer;
import io.pdgateway.core.routing.score.DecodePolicyScorer;
import io.pdgateway.core.routing.score.NanRetryScorer;
import io.pdgateway.core.routing.score.PrefillPolicyScorer;
import io.pdgateway.core.routing.score.StddevSkipScorer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The pd strategy, the spec's "Pod Selection Algorithm", as lists of stages: filters (step 0's bucketing and roleset
 * completeness), fast paths in order (step 0's fallback and overflow, steps 1, 2 and 2b), a scorer per side (steps 3
 * and 4, with the stddev skip, the cold start and the NaN retry as decorators) and the pair picker (step 5). Pure:
 * everything it reads comes in the {@link RoutingContext}. The runner checks each stage's contract and names the
 * stage that broke it, so a bad stage fails loudly in tests instead of routing somewhere odd.
 */
public final class PdCascade {
    private final List<PodFilter> filters;
    private final List<FastPath> fastPaths;
    private final Scorer prefillScorer;
    private final Scorer decodeScorer;
    private final PairPicker picker;

    public PdCascade(List<PodFilter> filters, List<FastPath> fastPaths, Scorer prefillScorer, Scorer decodeScorer,
            PairPicker picker) {
        this.filters = List.copyOf(filters);
        this.fastPaths = List.copyOf(fastPaths);
        this.prefillScorer = prefillScorer;
        this.decodeScorer = decodeScorer;
        this.picker = picker;
    }

    /** The spec's cascade as the settings configure it. */
    public static PdCascade of(RoutingSettings settings) {
        boolean bucketing = settings.promptLengthBucketing();
        List<PodFilter> filters = new ArrayList<>();
        filters.add(new ExcludedPodsFilter());
        filters.add(new EjectedPodsFilter());
        filters.add(new RolesetCompletenessFilter());
        filters.add(bucketing ? new PromptLengthBucketFilter() : new StandardPodGateFilter());
        List<FastPath> fastPaths = new ArrayList<>();
        fastPaths.add(new NoCompletePairFallback(bucketing));
        if (bucketing) {
            fastPaths.add(new CombinedOverflowFastPath());
        }
        fastPaths.add(new PrefillImbalanceFastPath());
        fastPaths.add(new DecodeImbalanceFastPath());
        if (settings.adaptiveBuckets()) {
            fastPaths.add(new BucketBandFastPath());
        }
        return new PdCascade(filters, fastPaths, new StddevSkipScorer(new PrefillPolicyScorer()),
                new ColdStartScorer(new NanRetryScorer(new DecodePolicyScorer(), DecodePolicy.LOAD_BALANCING.scorer())),
                new PolicyPairPicker());
    }

    public List<PodFilter> filters() {
        return filters;
    }

    public List<FastPath> fastPaths() {
        return fastPaths;
    }

    public RouteDecision route(RoutingContext context) {
        PdCandidates candidates = PdCandidates.of(context.model(), context.request().profile());
        List<String> rejections = new ArrayList<>();
        for (int f = 0; f < filters.size(); f++) {
            PodFilter filter = filters.get(f);
            PodFilter.Result result = filter.filter(context, candidates);
            if (result.survivors() != candidates) { // a filter that keeps everything returns its input as is
                checkSubset(filter.name(), candidates, result.survivors());
            }
            rejections.addAll(result.rejections());
            candidates = result.survivors();
        }
        List<String> steps = new ArrayList<>(2);
        List<String> reasons = new ArrayList<>(2);
        for (int f = 0; f < fastPaths.size(); f++) {
            FastPath fastPath = fastPaths.get(f);
            Optional<FastPath.Result> fired = fastPath.apply(context, candidates);
            if (fired.isEmpty()) {
                continue;
            }
            if (fired.get() instanceof FastPath.Decided decided) {
                RouteDecision decision = decided.decision();
                checkDecided(fastPath.name(), candidates, decision);
                if (!decision.verdict().routed()) {
                    decision = decision.explainedBy(String.join("; ", rejections));
                }
                return decision.afterSteps(String.join(",", steps), String.join("; ", reasons));
            }
            FastPath.Narrowing narrowing = (FastPath.Narrowing) fired.get();
            checkSubset(fastPath.name(), candidates, narrowing.candidates());
            steps.add(narrowing.step());
            reasons.add(narrowing.reason());
            candidates = narrowing.candidates();
        }
        List<Pod> prefills = PdCandidatesNarrowing.side(candidates, true);
        List<Pod> decodes = PdCandidatesNarrowing.side(candidates, false);
        ScoredPods prefillScores = ScoredPods.of(prefills, checkedScores(prefillScorer, context, prefills));
        ScoredPods decodeScores = ScoredPods.of(decodes, checkedScores(decodeScorer, context, decodes));
        RouteDecision decision = picker.pick(context, candidates, prefillScores, decodeScores);
        if (decision.isPd() && !(containsSame(prefills, decision.prefill()) && containsSame(decodes, decision.target()))) {
            throw new IllegalStateException("stage " + picker.name() + " picked a pod that is not a candidate");
        }
        // Most decisions pass no narrowing step: joining two empty lists would still allocate, per decision.
        return steps.isEmpty() ? decision : decision.afterSteps(String.join(",", steps), String.join("; ", reasons));
    }

    /** A fast path that decides may only pick among the candidates it was given. */
    private static void checkDecided(String stage, PdCandidates candidates, RouteDecision decision) {
        boolean ok = switch (decision.kind()) {
            case NONE -> true;
            case SINGLE -> containsSame(candidates.standard(), decision.target());
            case PD_PAIR -> containsSame(PdCandidatesNarrowing.side(candidates, true), decision.prefill())
                    && containsSame(PdCandidatesNarrowing.side(candidates, false), decision.target());
        };
        if (!ok) {
            throw new IllegalStateException("stage " + stage + " decided on a pod that is not a candidate");
        }
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
