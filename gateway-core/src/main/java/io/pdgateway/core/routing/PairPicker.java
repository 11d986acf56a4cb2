package io.pdgateway.core.routing;

import java.util.random.RandomGenerator;

/** The last cascade stage: turns the scored candidates into a decision. */
public interface PairPicker {
    String name();

    RouteDecision pick(RouteRequest request, PdCandidates candidates, ScoredPods prefill, ScoredPods decode,
            RandomGenerator random);
}
