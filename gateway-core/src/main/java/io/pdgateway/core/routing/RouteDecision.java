package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The router's answer. {@code target} is the decode pod of a PD pair or the single serving pod. The reason and the
 * score table are built only when someone reads them (a debug header, a debug log line, an error body): most
 * decisions are never explained, and formatting every one would cost more than choosing it.
 *
 * @param step the cascade steps that decided, comma-separated (e.g. "prefill-imbalance,final-score")
 * @param why supplies the one-line reason for logs, errors and the x-pd-decision header
 * @param scoreTable supplies each roleset's final score and each pod's own score (NaN when skipped), by name; empty
 *     when the decision was not asked to keep its scores ({@link #SCORES_NOT_KEPT})
 */
public record RouteDecision(DecisionKind kind, Pod prefill, Pod target, Verdict verdict, Strategy strategy, String step,
        Supplier<String> why, Supplier<Map<String, Double>> scoreTable) {

    private static final Supplier<Map<String, Double>> NO_SCORES = Map::of;

    /**
     * The score table of a decision nobody asked to explain: its scores were the model's working arrays, which the
     * next decision overwrites, so there is nothing to show (see {@code DecisionBuffers.scoresKept}).
     */
    public static final Supplier<Map<String, Double>> SCORES_NOT_KEPT = Map::of;

    public static RouteDecision pair(Pod prefill, Pod decode, String step, String reason, Map<String, Double> scores) {
        Map<String, Double> copy = Map.copyOf(scores);
        return pair(prefill, decode, step, () -> reason, () -> copy);
    }

    public static RouteDecision pair(Pod prefill, Pod decode, String step, Supplier<String> reason,
            Supplier<Map<String, Double>> scores) {
        return new RouteDecision(DecisionKind.PD_PAIR, prefill, decode, Verdict.PD_PAIR_SELECTED, Strategy.PD, step, reason,
                scores);
    }

    public static RouteDecision single(Pod pod, Verdict verdict, Strategy strategy, String step, String reason) {
        return new RouteDecision(DecisionKind.SINGLE, null, pod, verdict, strategy, step, () -> reason, NO_SCORES);
    }

    public static RouteDecision none(Verdict verdict, Strategy strategy, String step, String reason) {
        return new RouteDecision(DecisionKind.NONE, null, null, verdict, strategy, step, () -> reason, NO_SCORES);
    }

    public String reason() {
        return why.get();
    }

    public Map<String, Double> scores() {
        return scoreTable.get();
    }

    public boolean isPd() {
        return kind == DecisionKind.PD_PAIR;
    }

    /** The same decision with this reason added in brackets (the filters' rejections of a decision that routes nowhere). */
    public RouteDecision explainedBy(String detail) {
        if (detail.isEmpty()) {
            return this;
        }
        Supplier<String> earlier = why;
        return new RouteDecision(kind, prefill, target, verdict, strategy, step, () -> earlier.get() + " (" + detail + ")",
                scoreTable);
    }

    /** The same decision with the steps (and their reasons) that narrowed the candidates before it, in order. */
    public RouteDecision afterSteps(String earlierSteps, String earlierReasons) {
        if (earlierSteps.isEmpty()) {
            return this;
        }
        Supplier<String> later = why;
        return new RouteDecision(kind, prefill, target, verdict, strategy, earlierSteps + "," + step,
                () -> earlierReasons + "; " + later.get(), scoreTable);
    }
}
