package io.pdgateway.server.exchange;

import io.pdgateway.core.model.Pod;
import io.pdgateway.server.routing.RoutingService;

/**
 * Routes the exchange's request again through the pure router, on the first decision's features and knobs, without a
 * pod that failed it. The caller has released the first decision's charges; the new decision, when it routes,
 * carries its own.
 */
@FunctionalInterface
public interface Reroute {
    RoutingService.Outcome without(Pod failed);
}
