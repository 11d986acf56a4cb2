package io.pdgateway.routingsim.gateway;

import io.pdgateway.core.ledger.Charges;
import io.pdgateway.core.routing.RouteDecision;

/** One routing decision with the ledger charges it holds (null when nothing was routed). */
public record Routed(RouteDecision decision, Charges charges) {}
