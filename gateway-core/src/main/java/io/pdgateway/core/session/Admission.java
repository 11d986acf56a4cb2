package io.pdgateway.core.session;

import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.routing.Strategy;

/**
 * A request admitted for routing: its model's pods as of admission, the resolved strategy (and where it came from),
 * the config profile, the PD knobs of that profile, and what its prompt must be measured for. Or, when
 * {@link #refusal()} is set, why it is not routed at all.
 *
 * @param explain the client asked to see the decision (x-pd-debug), so the decision keeps its score table; otherwise
 *     its scores are the model's reused working arrays and its table is empty
 * @param pairRefusal why the body cannot go to a prefill/decode pair (the engine's hand-off cannot carry it), so a PD
 *     decision takes a standard pod; null when it can
 */
public record Admission(ModelPods model, Strategy strategy, String strategySource, String profile, PdKnobs knobs,
        PromptNeeds needs, Refusal refusal, boolean explain, String pairRefusal) {

    /** Why a request is not admitted; the edge turns it into the client's error. */
    public record Refusal(Reason reason, String message) {}

    public enum Reason {
        /** No discovered pod serves the model: 404 model_not_found. */
        UNKNOWN_MODEL,
        /** The routing-strategy header names no strategy: 400. */
        UNKNOWN_STRATEGY
    }

    static Admission refused(Reason reason, String message) {
        return new Admission(null, null, null, null, null, PromptNeeds.NOTHING, new Refusal(reason, message), false,
                null);
    }

    /** This admission, its decisions (the first and any retry) keeping their score tables for x-pd-decision. */
    public Admission explained() {
        return new Admission(model, strategy, strategySource, profile, knobs, needs, refusal, true, pairRefusal);
    }

    /** This admission for a body no prefill/decode pair can carry, for {@code why}: it takes a standard pod. */
    public Admission withoutPairs(String why) {
        return new Admission(model, strategy, strategySource, profile, knobs, needs, refusal, explain, why);
    }

    public boolean admitted() {
        return refusal == null;
    }
}
