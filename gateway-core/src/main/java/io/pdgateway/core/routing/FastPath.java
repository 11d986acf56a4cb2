package io.pdgateway.core.routing;

import java.util.Optional;

/**
 * A load-imbalance shortcut (spec steps 1 and 2): when it fires it narrows one side to a single pod and aligns the
 * other side to that pod's roleset; otherwise it returns empty and the candidates stand.
 */
public interface FastPath {
    String name();

    Optional<Narrowing> apply(RoutingContext context, PdCandidates candidates);

    /** The narrowed candidates, the step that fired (a {@link Step} name) and why. */
    record Narrowing(PdCandidates candidates, String step, String reason) {}
}
