package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import java.util.Map;

/**
 * The router's answer. {@code target} is the decode pod of a PD pair or the single serving pod.
 *
 * @param step the cascade steps that decided, comma-separated (e.g. "prefill-imbalance,final-score")
 * @param reason one line for logs and the x-pd-decision header
 * @param scores each roleset's final score and each pod's own score (NaN when skipped), by name, for debugging
 */
public record RouteDecision(DecisionKind kind, Pod prefill, Pod target, Verdict verdict, String strategy, String step,
        String reason, Map<String, Double> scores) {

    public RouteDecision {
        scores = Map.copyOf(scores);
    }

    public static RouteDecision pair(Pod prefill, Pod decode, String step, String reason, Map<String, Double> scores) {
        return new RouteDecision(DecisionKind.PD_PAIR, prefill, decode, Verdict.PD_PAIR_SELECTED, "pd", step, reason,
                scores);
    }

    public static RouteDecision single(Pod pod, Verdict verdict, String strategy, String step, String reason) {
        return new RouteDecision(DecisionKind.SINGLE, null, pod, verdict, strategy, step, reason, Map.of());
    }

    public static RouteDecision none(Verdict verdict, String strategy, String step, String reason) {
        return new RouteDecision(DecisionKind.NONE, null, null, verdict, strategy, step, reason, Map.of());
    }

    public boolean isPd() {
        return kind == DecisionKind.PD_PAIR;
    }

    /** The same decision with the steps that narrowed the candidates before it, in order. */
    public RouteDecision afterSteps(String earlierSteps) {
        if (earlierSteps.isEmpty()) {
            return this;
        }
        return new RouteDecision(kind, prefill, target, verdict, strategy, earlierSteps + "," + step, reason, scores);
    }
}
