package io.pdgateway.core.routing;

import java.util.Optional;

/**
 * A cascade shortcut (spec steps 0, 1, 2 and 2b). When it fires it either narrows the candidates (a load-imbalance
 * fast path: one side to a single pod, the other aligned to its roleset) or decides outright (a standard pod, or
 * nothing); otherwise it returns empty and the candidates stand.
 */
public interface FastPath {
    String name();

    Optional<Result> apply(RoutingContext context, PdCandidates candidates);

    /** What a fast path that fired did. */
    sealed interface Result permits Narrowing, Decided {}

    /** The narrowed candidates, the step that fired (a {@link Step} name) and why. */
    record Narrowing(PdCandidates candidates, String step, String reason) implements Result {}

    /** The request's decision, made here; the rest of the cascade does not run. */
    record Decided(RouteDecision decision) implements Result {}
}
