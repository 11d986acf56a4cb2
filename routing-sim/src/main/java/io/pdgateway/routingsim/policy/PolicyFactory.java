package io.pdgateway.routingsim.policy;

import io.pdgateway.core.routing.RouteDecider;

/** Builds a policy's decider for one run. */
@FunctionalInterface
public interface PolicyFactory {
    RouteDecider create(PolicySetup setup);
}
