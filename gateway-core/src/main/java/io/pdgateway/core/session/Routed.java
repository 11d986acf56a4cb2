package io.pdgateway.core.session;

import io.pdgateway.core.routing.RouteDecision;

/**
 * One routing decision with the lease it holds (a no-op lease when nothing was routed), and what it was made from, so
 * the same request can be routed again without the pod that failed it.
 *
 * @param routingNanos time spent choosing and charging
 */
public record Routed(RouteDecision decision, Lease lease, Admission admission, PromptFeatures features,
        String requestId, long routingNanos) {}
