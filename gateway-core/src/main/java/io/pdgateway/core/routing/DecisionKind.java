package io.pdgateway.core.routing;

/** The shape of a routing decision. */
public enum DecisionKind {
    /** A prefill pod and a decode pod from one roleset. */
    PD_PAIR,
    /** One pod serves the whole request: a standard pod under pd, or any pod under a non-PD strategy. */
    SINGLE,
    /** Nothing can serve; the verdict says why. */
    NONE
}
