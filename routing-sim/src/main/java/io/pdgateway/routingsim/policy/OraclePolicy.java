package io.pdgateway.routingsim.policy;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Roleset;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RouteDecider;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Strategy;
import io.pdgateway.core.routing.Step;
import io.pdgateway.core.routing.Verdict;
import io.pdgateway.routingsim.cluster.SimCluster;
import io.pdgateway.routingsim.engine.EngineForecast;
import io.pdgateway.routingsim.engine.SimEngine;
import io.pdgateway.routingsim.workload.SimRequest;
import io.pdgateway.routingsim.workload.Workload;
import io.pdgateway.workload.Slo;
import java.util.Locale;
import java.util.Map;

/**
 * The ceiling: a clairvoyant greedy router. For every eligible pair and standard pod it works out from the engines'
 * true state ({@link EngineForecast}: exact queues, prefix-cache contents, free KV, transfer backlog, and the
 * request's real output length) the request's time to first token and time per output token there. Of the candidates
 * predicted to meet the run's SLO it takes the one with the earliest first token; when none is, the one that misses it
 * by the least. No gateway can know any of this; the gap between a production policy and this one is what better
 * signals could still buy. It is greedy, not optimal (it neither plans for requests still to come nor weighs the delay
 * it adds to requests already there), so a production policy may beat it on some run.
 */
public final class OraclePolicy implements RouteDecider {
    public static final String STEP = "oracle";

    private final EligiblePods eligible;
    private final SimCluster cluster;
    private final Workload workload;
    private final Slo slo;

    /** @param workload where the oracle learns what the gateway cannot: block hashes and true output lengths */
    public OraclePolicy(boolean bucketing, SimCluster cluster, Workload workload, Slo slo) {
        this.eligible = new EligiblePods(bucketing);
        this.cluster = cluster;
        this.workload = workload;
        this.slo = slo;
    }

    @Override
    public RouteDecision route(RoutingContext context) {
        PdCandidates candidates = eligible.of(context, context.model());
        SimRequest request = workload.requests().get(Integer.parseInt(context.request().requestId()));
        long now = cluster.now();
        int prompt = request.promptTokens();
        int output = request.outputTokens();
        double best = Double.POSITIVE_INFINITY;
        long bestFirst = Long.MAX_VALUE;
        Pod bestPrefill = null;
        Pod bestTarget = null;
        for (Roleset roleset : candidates.rolesets()) {
            for (Pod p : roleset.prefills()) {
                SimEngine prefill = cluster.engine(p);
                long prefilled = EngineForecast.prefillDone(prefill, request.blockHashes(), prompt, now);
                long kvAt = EngineForecast.transferDone(prefill, prompt, prefilled);
                for (Pod d : roleset.decodes()) {
                    EngineForecast.Decode decode = EngineForecast.decode(cluster.engine(d), prompt, output, kvAt, now);
                    double score = score(decode.firstTokenAt() - now, decode.stepMillis(), output);
                    if (score < best || score == best && decode.firstTokenAt() < bestFirst) {
                        best = score;
                        bestFirst = decode.firstTokenAt();
                        bestPrefill = p;
                        bestTarget = d;
                    }
                }
            }
        }
        for (Pod s : candidates.standard()) {
            SimEngine standard = cluster.engine(s);
            long first = EngineForecast.prefillDone(standard, request.blockHashes(), prompt, now);
            EngineForecast.Decode decode = EngineForecast.decode(standard, prompt, output, first, now);
            double score = score(first - now, decode.stepMillis(), output);
            if (score < best || score == best && first < bestFirst) {
                best = score;
                bestFirst = first;
                bestPrefill = null;
                bestTarget = s;
            }
        }
        if (bestTarget == null) {
            return RouteDecision.none(Verdict.NO_COMPLETE_PAIR, Strategy.PD, Step.NO_CANDIDATE, "no eligible pair or standard pod");
        }
        String reason = String.format(Locale.ROOT, "oracle: first token in %.1f ms, score %.3f",
                (bestFirst - now) / 1e6, best);
        if (bestPrefill == null) {
            return RouteDecision.single(bestTarget, Verdict.STANDARD_FALLBACK, Strategy.PD, STEP, reason);
        }
        return RouteDecision.pair(bestPrefill, bestTarget, STEP, reason, Map.of());
    }

    /**
     * In [0, 1] when the SLO is predicted met (then TTFT / SLO_TTFT: the earliest first token wins), above 1 when not
     * (1 + the larger of the two ratios: the smallest miss wins), so a candidate that meets it always wins over one
     * that does not.
     */
    private double score(long ttftNanos, double stepMillis, int output) {
        double ttft = ttftNanos / 1e6 / slo.ttftMillis();
        double tpot = output < 2 ? 0 : stepMillis / slo.tpotMillis();
        return ttft <= 1 && tpot <= 1 ? ttft : 1 + Math.max(ttft, tpot);
    }
}
