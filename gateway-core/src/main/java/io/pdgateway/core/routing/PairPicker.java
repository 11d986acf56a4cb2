package io.pdgateway.core.routing;

/** The last cascade stage: turns the scored candidates into a decision. */
public interface PairPicker {
    String name();

    RouteDecision pick(RoutingContext context, PdCandidates candidates, ScoredPods prefill, ScoredPods decode);
}
