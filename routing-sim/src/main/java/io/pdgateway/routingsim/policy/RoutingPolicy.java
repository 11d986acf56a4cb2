package io.pdgateway.routingsim.policy;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RoutingContext;

/**
 * One routing policy under test (Caffeine's simulator Policy): given what the gateway knows at the moment of a
 * request, where does it go. The simulated gateway charges the ledgers and warms the prefix index around every
 * decision the same way, whichever policy made it.
 */
public interface RoutingPolicy {
    RouteDecision decide(RoutingContext context, ModelPods model);
}
