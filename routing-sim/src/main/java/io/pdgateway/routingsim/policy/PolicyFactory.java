package io.pdgateway.routingsim.policy;

/** Builds a policy for one run. */
@FunctionalInterface
public interface PolicyFactory {
    RoutingPolicy create(PolicySetup setup);
}
