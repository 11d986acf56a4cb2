package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import java.util.Map;

/**
 * The router's answer. {@code target} is the decode pod of a PD pair or the single serving pod.
 *
 * @param reason one line for logs and the x-pd-decision header: which step decided and why
 * @param scores final scores per candidate (roleset name or pod id), kept for debugging
 */
public record RouteDecision(DecisionKind kind, Pod prefill, Pod target, Verdict verdict, String strategy, String reason,
        Map<String, Double> scores) {

    public RouteDecision {
        scores = Map.copyOf(scores);
    }

    public static RouteDecision pair(Pod prefill, Pod decode, String reason, Map<String, Double> scores) {
        return new RouteDecision(DecisionKind.PD_PAIR, prefill, decode, Verdict.PD_PAIR_SELECTED, "pd", reason, scores);
    }

    public static RouteDecision single(Pod pod, Verdict verdict, String strategy, String reason) {
        return new RouteDecision(DecisionKind.SINGLE, null, pod, verdict, strategy, reason, Map.of());
    }

    public static RouteDecision none(Verdict verdict, String strategy, String reason) {
        return new RouteDecision(DecisionKind.NONE, null, null, verdict, strategy, reason, Map.of());
    }

    public boolean isPd() {
        return kind == DecisionKind.PD_PAIR;
    }
}
