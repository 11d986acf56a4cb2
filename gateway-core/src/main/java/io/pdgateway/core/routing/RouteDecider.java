package io.pdgateway.core.routing;

/**
 * Turns one request's routing context into a decision. The production one is {@link Router} (the spec's strategies
 * and cascade); the routing simulator plugs its floor and ceiling in here, so they are charged, released and upkept by
 * the same session as the production policies.
 */
@FunctionalInterface
public interface RouteDecider {
    RouteDecision route(RoutingContext context);
}
