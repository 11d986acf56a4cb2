package io.pdgateway.core.routing.pick;

import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Roleset;
import io.pdgateway.core.predict.DecodeStepModel;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.LoadView;
import io.pdgateway.core.routing.PairPicker;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.ScoredPods;
import io.pdgateway.core.routing.Step;
import io.pdgateway.core.routing.Strategy;
import io.pdgateway.core.routing.Verdict;
import io.pdgateway.core.routing.score.DecodeLoads;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.random.RandomGenerator;

/**
 * Step 5 under predicted_ttft: the pair with the lowest predicted time whose decode pod stays under its KV and TPOT
 * limits. Prefill scores are predicted milliseconds (the prefill leg plus the KV transfer); each roleset's decode pod
 * (the decode policy's choice among those under the limits) adds what joining it costs in time
 * ({@link #decodeMillis}): the step that gives this request its first token and, when an expected answer length is
 * set (expectedOutputTokens, 0 by default), the slower tokens it gets beside the requests already there and, weighted
 * like the prefill side's added work, the slower tokens it gives them. Greedy on the first token, the policy sent
 * request after request to the 1P1D pairs whose prefill was quickest and their decode pods ran large batches
 * (routing-sim, 1,000 pods: TPOT p50 17 ms against 7 ms); counting the answer balances them, but where prefill queues
 * set the limit it trades first tokens for tokens that matter less (a sixth of the prefix-heavy mix's sustainable
 * rate), so it is opt-in. Pairs whose decode pod is over a limit are taken only when no pair is under them. Among
 * pairs on idle prefill pods, those within the prediction's measured error of the best are equally likely
 * ({@link #withinError}).
 */
public final class PredictedTtftPairPicker implements PairPicker {
    public static final String NAME = "predicted-ttft-pair";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RouteDecision pick(RoutingContext context, PdCandidates candidates, ScoredPods prefillScores,
            ScoredPods decodeScores) {
        // Each side's scores by position in its roleset-ordered list: roleset r's pods are the next few positions.
        ScoredPods prefill = prefillScores.alignedTo(candidates.side(true));
        ScoredPods decode = decodeScores.alignedTo(candidates.side(false));
        List<Roleset> rolesets = candidates.rolesets();
        RandomGenerator random = context.random();
        int best = -1;
        boolean bestFeasible = false;
        double bestTtft = Double.POSITIVE_INFINITY;
        double bestDecodeScore = Double.POSITIVE_INFINITY;
        int ties = 0;
        // by roleset; NaN where none was predicted
        double[] predicted = DecisionBuffers.scores(context.load(), Use.ROLESET_SCORES, rolesets.size());
        java.util.Arrays.fill(predicted, Double.NaN);
        // Working arrays, by roleset: its chosen pods' positions, read only where predicted holds a number.
        int[] prefills = DecisionBuffers.ints(context.load(), Use.ROLESET_PREFILLS, rolesets.size());
        int[] decodes = DecisionBuffers.ints(context.load(), Use.ROLESET_DECODES, rolesets.size());
        boolean[] feasibles = DecisionBuffers.flags(context.load(), Use.ROLESET_FEASIBLE, rolesets.size());
        // Each decode pod's load as the decode policy read it (token_load's list is this side), else read here once.
        DecodeLoads loads = DecodeLoads.of(candidates.side(false), context.load());
        IntPredicate underLimits = underLimits(context, loads); // once per decision, not roleset
        int prefillFrom = 0;
        int decodeFrom = 0;
        for (int r = 0; r < rolesets.size(); r++) {
            Roleset roleset = rolesets.get(r);
            int prefillTo = prefillFrom + roleset.prefills().size();
            int decodeTo = decodeFrom + roleset.decodes().size();
            int p = prefill.lowest(prefillFrom, prefillTo, random);
            int d = p < 0 ? -1 : decode.lowest(decodeFrom, decodeTo, underLimits, random);
            boolean feasible = d >= 0;
            if (p >= 0 && !feasible) {
                d = decode.lowest(decodeFrom, decodeTo, random);
            }
            prefillFrom = prefillTo;
            decodeFrom = decodeTo;
            if (p < 0 || d < 0) {
                continue;
            }
            double ttft = prefill.at(p) + decodeMillis(context, loads.running(d), loads.tokens(d));
            double decodeScore = decode.at(d);
            predicted[r] = ttft;
            prefills[r] = p;
            decodes[r] = d;
            feasibles[r] = feasible;
            int order = compare(feasible, ttft, decodeScore, bestFeasible, bestTtft, bestDecodeScore);
            if (best < 0 || order < 0) {
                best = r;
                bestFeasible = feasible;
                bestTtft = ttft;
                bestDecodeScore = decodeScore;
                ties = 1;
            } else if (order == 0 && random.nextInt(++ties) == 0) {
                best = r;
            }
        }
        if (best < 0) {
            return RouteDecision.none(Verdict.NO_COMPLETE_PAIR, Strategy.PD, Step.NO_CANDIDATE,
                    "no roleset has a scored prefill and decode pod");
        }
        int within = withinError(context, predicted, feasibles, bestFeasible, bestTtft, prefill.pod(prefills[best]),
                prefill, prefills);
        int chosen = within >= 0 ? within : best;
        Pod chosenPrefill = prefill.pod(prefills[chosen]);
        Pod chosenDecode = decode.pod(decodes[chosen]);
        double ttft = within >= 0 ? predicted[within] : bestTtft;
        boolean withinLimits = bestFeasible;
        return RouteDecision.pair(chosenPrefill, chosenDecode, Step.FINAL_SCORE,
                () -> String.format(Locale.ROOT, "roleset %s: predicted first token in %.1f ms (prefill %s, decode %s%s)",
                        chosenPrefill.rolesetName(), ttft, chosenPrefill.name(), chosenDecode.name(),
                        withinLimits ? "" : ", every decode pod over its KV or TPOT limit"),
                DecisionBuffers.scoresKept(context.load()) ? () -> table(rolesets, predicted)
                        : RouteDecision.SCORES_NOT_KEPT);
    }

    /**
     * When the best pair's prefill pod has no leg of this gateway's in flight: one of the pairs on such idle prefill
     * pods whose prediction lies within the best's measured error of it (the best prefill pod's mean relative error
     * times the best prediction), each equally likely; else, or while that error is unknown, -1 (the best stands).
     * Idle pods' predictions differ only by their fitted models, and that close the models cannot tell them apart:
     * taking the lowest anyway sent request after request to the pods whose fit happened to be a little quicker
     * (routing-sim, 1,000 pods behind one shared system prompt: prefill imbalance 2.47, 1.95 with this). Where legs
     * are queued the difference is work the gateway itself sent there; spreading over the band in that case too cost
     * the prefix-heavy mix 2.5 % of its sustainable rate.
     */
    private static int withinError(RoutingContext context, double[] predicted, boolean[] feasibles,
            boolean bestFeasible, double bestTtft, Pod bestPrefill, ScoredPods prefill, int[] prefills) {
        LoadView load = context.load();
        double error = load.prefillModelError(bestPrefill);
        if (!(error > 0) || load.inFlightPrefills(bestPrefill) > 0) {
            return -1;
        }
        double bound = bestTtft * (1 + error);
        int chosen = -1;
        int seen = 0;
        for (int r = 0; r < predicted.length; r++) {
            if (predicted[r] <= bound && feasibles[r] == bestFeasible
                    && load.inFlightPrefills(prefill.pod(prefills[r])) == 0 && context.random().nextInt(++seen) == 0) {
                chosen = r;
            }
        }
        return chosen;
    }

    /** Each roleset's predicted first token, by name: the x-pd-decision score table, built only when read. */
    private static Map<String, Double> table(List<Roleset> rolesets, double[] predicted) {
        Map<String, Double> table = new LinkedHashMap<>();
        for (int r = 0; r < predicted.length; r++) {
            if (!Double.isNaN(predicted[r])) {
                table.put(rolesets.get(r).name(), predicted[r]);
            }
        }
        return table;
    }

    /** Feasible first, then the earlier first token, then the decode policy's score. */
    private static int compare(boolean feasible, double ttft, double decodeScore, boolean bestFeasible, double bestTtft,
            double bestDecodeScore) {
        if (feasible != bestFeasible) {
            return feasible ? -1 : 1;
        }
        int byTtft = Double.compare(ttft, bestTtft);
        return byTtft != 0 ? byTtft : Double.compare(decodeScore, bestDecodeScore);
    }

    /**
     * What joining the decode pod costs, in milliseconds, from its step-time model and the requests the gateway has
     * routed to it (B running, holding their prompts plus, on average, half of an expected answer of N tokens each):
     * the step that produces this request's first token there; N tokens each e·B + f·ΣC slower than on an idle pod;
     * and, times predictedTtftWorkWeight, the e + f·C this request adds to each step of the B requests for the about
     * N/2 tokens they have left. A pod running nothing costs one bare step.
     */
    static double decodeMillis(RoutingContext context, int running, double decodeTokens) {
        PdKnobs knobs = context.request().knobs();
        DecodeStepModel model = knobs.decodeTimeModel();
        double answer = knobs.expectedOutputTokens();
        double held = decodeTokens + running * answer / 2;
        double own = context.request().promptTokens() + answer / 2;
        double firstToken = model.stepMillis(running + 1, held + own);
        double slower = answer * (model.millisPerSequence() * running + model.millisPerContextToken() * held);
        double imposed = running * answer / 2 * model.addedPerStepMillis(own);
        return firstToken + slower + knobs.predictedTtftWorkWeight() * imposed;
    }

    /** Whether the decode pod at a position of the side is under its KV and TPOT limits. */
    private static IntPredicate underLimits(RoutingContext context, DecodeLoads loads) {
        PdKnobs knobs = context.request().knobs();
        return position -> underLimits(loads.kvUsage(position), loads.throughput(position), loads.running(position),
                knobs);
    }

    /**
     * Under the decode KV limit (scraped KV use below decodeKvLimit) and, when a TPOT limit is set, with a current
     * time per output token (running requests / generation throughput) below it. Unknown metrics (NaN) count as under.
     */
    static boolean underLimits(double kvUsage, double throughput, int running, PdKnobs knobs) {
        if (kvUsage >= knobs.decodeKvLimit()) {
            return false;
        }
        double tpotLimit = knobs.decodeTpotLimitMillis();
        if (tpotLimit > 0 && running > 0 && throughput > 0) {
            return 1000.0 * running / throughput < tpotLimit;
        }
        return true;
    }
}
