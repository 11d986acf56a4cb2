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
import java.util.HashMap;
import java.util.Map;

/**
 * The floor: what a plain round-robin proxy in front of the pods would do. It reads no load at all; it cycles through
 * the eligible (prefill, decode) pairs, and through the eligible standard pods when no pair covers the prompt. Each
 * eligible set keeps its own turn, so prompts of different buckets do not skew each other's rotation.
 */
public final class RoundRobinPolicy implements RouteDecider {
    public static final String STEP = "round-robin";

    private final EligiblePods eligible;
    private final Map<String, long[]> turns = new HashMap<>();

    public RoundRobinPolicy(boolean bucketing) {
        this.eligible = new EligiblePods(bucketing);
    }

    @Override
    public RouteDecision route(RoutingContext context) {
        PdCandidates candidates = eligible.of(context, context.model());
        long turn = turns.computeIfAbsent(key(candidates), k -> new long[1])[0]++;
        if (!candidates.hasCompletePair()) {
            if (candidates.standard().isEmpty()) {
                return RouteDecision.none(Verdict.NO_COMPLETE_PAIR, Strategy.PD, Step.NO_CANDIDATE,
                        "no eligible pair or standard pod");
            }
            Pod pod = candidates.standard().get((int) (turn % candidates.standard().size()));
            return RouteDecision.single(pod, Verdict.STANDARD_FALLBACK, Strategy.PD, Step.BUCKET_FALLBACK,
                    "round-robin standard pod " + pod.name());
        }
        long pairs = 0;
        for (Roleset r : candidates.rolesets()) {
            pairs += (long) r.prefills().size() * r.decodes().size();
        }
        long k = turn % pairs;
        for (Roleset r : candidates.rolesets()) {
            long here = (long) r.prefills().size() * r.decodes().size();
            if (k < here) {
                Pod prefill = r.prefills().get((int) (k / r.decodes().size()));
                Pod decode = r.decodes().get((int) (k % r.decodes().size()));
                return RouteDecision.pair(prefill, decode, STEP, "round-robin pair " + r.name(), Map.of());
            }
            k -= here;
        }
        throw new IllegalStateException("round-robin walked past " + pairs + " pairs");
    }

    private static String key(PdCandidates candidates) {
        StringBuilder key = new StringBuilder();
        for (Roleset r : candidates.rolesets()) {
            key.append(r.name()).append(',');
        }
        key.append('|');
        for (Pod pod : candidates.standard()) {
            key.append(pod.name()).append(',');
        }
        return key.toString();
    }
}
