package io.pdgateway.core.routing.pick;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Roleset;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.PairPicker;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.ScoredPods;
import io.pdgateway.core.routing.Step;
import io.pdgateway.core.routing.Verdict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Spec "Step 5 — Final pair selection": per roleset, its lowest-scoring prefill and decode pods;
 * final = prefill / max_prefill + decode / max_decode; the lowest roleset wins, ties broken at random.
 */
public final class FinalPairPicker implements PairPicker {
    public static final String NAME = "final-pair";

    /** Upstream finalPDScore: the prefill normaliser is at least 1 so idle pods do not divide by zero. */
    static final double MIN_PREFILL_MAX = 1.0;
    /** Upstream scoreDecodePods: the decode normaliser is at least 0.01. */
    static final double MIN_DECODE_MAX = 0.01;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RouteDecision pick(RoutingContext context, PdCandidates candidates, ScoredPods prefillScores,
            ScoredPods decodeScores) {
        RandomGenerator random = context.random();
        // Each side's scores by position in its roleset-ordered list: roleset r's pods are the next few positions, so
        // nothing below looks a pod up.
        ScoredPods prefill = prefillScores.alignedTo(candidates.side(true));
        ScoredPods decode = decodeScores.alignedTo(candidates.side(false));
        List<Roleset> rolesets = candidates.rolesets();
        double maxPrefill = Math.max(MIN_PREFILL_MAX, maxFinite(prefill));
        double maxDecode = Math.max(MIN_DECODE_MAX, maxFinite(decode));
        double[] finals = DecisionBuffers.scores(context.load(), Use.ROLESET_SCORES, rolesets.size());
        Pod bestPrefill = null;
        Pod bestDecode = null;
        double bestPrefillScore = Double.NaN;
        double bestDecodeScore = Double.NaN;
        double best = Double.POSITIVE_INFINITY;
        int ties = 0;
        int prefillFrom = 0;
        int decodeFrom = 0;
        for (int i = 0; i < finals.length; i++) {
            Roleset roleset = rolesets.get(i);
            int prefillTo = prefillFrom + roleset.prefills().size();
            int decodeTo = decodeFrom + roleset.decodes().size();
            int p = prefill.lowest(prefillFrom, prefillTo, random);
            int d = decode.lowest(decodeFrom, decodeTo, random);
            prefillFrom = prefillTo;
            decodeFrom = decodeTo;
            if (p < 0 || d < 0) {
                finals[i] = Double.NaN;
                continue;
            }
            double prefillScore = prefill.at(p);
            double decodeScore = decode.at(d);
            double score = prefillScore / maxPrefill + decodeScore / maxDecode;
            finals[i] = score;
            boolean taken = score < best || score == best && random.nextInt(++ties) == 0;
            if (score < best) {
                best = score;
                ties = 1;
            }
            if (taken) {
                bestPrefill = prefill.pod(p);
                bestDecode = decode.pod(d);
                bestPrefillScore = prefillScore;
                bestDecodeScore = decodeScore;
            }
        }
        if (bestPrefill == null) {
            return RouteDecision.none(Verdict.NO_COMPLETE_PAIR, io.pdgateway.core.routing.Strategy.PD, Step.NO_CANDIDATE,
                    "no roleset has a scored prefill and decode pod");
        }
        Pod chosenPrefill = bestPrefill;
        Pod chosenDecode = bestDecode;
        double chosen = best;
        // Kept as values: the scores may be working arrays the next decision overwrites before the reason is read.
        double prefillScore = bestPrefillScore;
        double decodeScore = bestDecodeScore;
        return RouteDecision.pair(chosenPrefill, chosenDecode, Step.FINAL_SCORE,
                () -> "roleset " + chosenPrefill.rolesetName() + " final=" + format(chosen) + " (prefill "
                        + chosenPrefill.name() + "=" + format(prefillScore) + ", decode "
                        + chosenDecode.name() + "=" + format(decodeScore) + ")",
                DecisionBuffers.scoresKept(context.load()) ? () -> table(rolesets, finals, prefill, decode)
                        : RouteDecision.SCORES_NOT_KEPT);
    }

    /** Every roleset's final score and every pod's own score, by name: the x-pd-decision score table. */
    private static Map<String, Double> table(List<Roleset> rolesets, double[] finals, ScoredPods prefill,
            ScoredPods decode) {
        Map<String, Double> table = new LinkedHashMap<>();
        for (int i = 0; i < finals.length; i++) {
            Roleset roleset = rolesets.get(i);
            roleset.prefills().forEach(pod -> table.put(pod.name(), prefill.score(pod)));
            roleset.decodes().forEach(pod -> table.put(pod.name(), decode.score(pod)));
            if (!Double.isNaN(finals[i])) {
                table.put(roleset.name(), finals[i]);
            }
        }
        return table;
    }

    /**
     * The largest finite score: an unscored pod (NaN) has none, and a +Infinity (a valid worst score) would turn every
     * other pod's share into 0 and its own into Infinity / Infinity = NaN, so a lone such pair would not be picked.
     */
    private static double maxFinite(ScoredPods scores) {
        double max = 0;
        for (int i = 0; i < scores.size(); i++) {
            double s = scores.at(i);
            if (s > max && s < Double.POSITIVE_INFINITY) { // false for NaN: the finite maximum, branches that predict
                max = s;
            }
        }
        return max;
    }

    private static String format(double value) {
        return String.format(java.util.Locale.ROOT, "%.3f", value);
    }
}
