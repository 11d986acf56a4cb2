package io.pdgateway.routingsim.policy;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Roleset;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Step;
import io.pdgateway.core.routing.Verdict;
import io.pdgateway.routingsim.cluster.SimCluster;
import io.pdgateway.routingsim.engine.EngineForecast;
import io.pdgateway.routingsim.engine.SimEngine;
import io.pdgateway.routingsim.workload.SimRequest;
import io.pdgateway.routingsim.workload.Workload;
import java.util.Map;

/**
 * The ceiling: a clairvoyant greedy router. For every eligible pair and standard pod it works out, from the engines'
 * true state ({@link EngineForecast}: exact queues, prefix-cache contents, free KV, transfer backlog, and the request's
 * real output length), when the request would complete, and takes the earliest. No gateway can know any of this; the
 * gap between a production policy and this one is what better signals could still buy. It is greedy, not optimal
 * (it does not plan for requests still to come), so a production policy may beat it on some run; that is worth
 * knowing too.
 */
public final class OraclePolicy implements RoutingPolicy {
    public static final String STEP = "oracle";

    private final EligiblePods eligible;
    private final SimCluster cluster;
    private final Workload workload;

    /** @param workload where the oracle learns what the gateway cannot: block hashes and true output lengths */
    public OraclePolicy(boolean bucketing, SimCluster cluster, Workload workload) {
        this.eligible = new EligiblePods(bucketing);
        this.cluster = cluster;
        this.workload = workload;
    }

    @Override
    public RouteDecision decide(RoutingContext context, ModelPods model) {
        PdCandidates candidates = eligible.of(context, model);
        SimRequest request = workload.requests().get(Integer.parseInt(context.request().requestId()));
        long now = cluster.now();
        int prompt = request.promptTokens();
        int output = request.outputTokens();
        long best = Long.MAX_VALUE;
        Pod bestPrefill = null;
        Pod bestTarget = null;
        for (Roleset roleset : candidates.rolesets()) {
            for (Pod p : roleset.prefills()) {
                SimEngine prefill = cluster.engine(p);
                long prefilled = EngineForecast.prefillDone(prefill, request.blockHashes(), prompt, now);
                if (prefilled >= best) {
                    continue;
                }
                long kvAt = EngineForecast.transferDone(prefill, prompt, prefilled);
                for (Pod d : roleset.decodes()) {
                    long done = EngineForecast.decodeDone(cluster.engine(d), prompt, output, kvAt, now);
                    if (done < best) {
                        best = done;
                        bestPrefill = p;
                        bestTarget = d;
                    }
                }
            }
        }
        for (Pod s : candidates.standard()) {
            SimEngine standard = cluster.engine(s);
            long first = EngineForecast.prefillDone(standard, request.blockHashes(), prompt, now);
            if (first >= best) {
                continue;
            }
            long done = EngineForecast.decodeDone(standard, prompt, Math.max(0, output - 1), first, now);
            if (done < best) {
                best = done;
                bestPrefill = null;
                bestTarget = s;
            }
        }
        if (bestTarget == null) {
            return RouteDecision.none(Verdict.NO_COMPLETE_PAIR, "pd", Step.NO_CANDIDATE, "no eligible pair or standard pod");
        }
        String reason = String.format(java.util.Locale.ROOT, "oracle: completes in %.1f ms", (best - now) / 1e6);
        if (bestPrefill == null) {
            return RouteDecision.single(bestTarget, Verdict.STANDARD_FALLBACK, "pd", STEP, reason);
        }
        return RouteDecision.pair(bestPrefill, bestTarget, STEP, reason, Map.of());
    }
}
