package io.pdgateway.epp;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.server.GatewayServer;
import io.pdgateway.server.exchange.Upstreams;
import io.pdgateway.server.front.ApiKeys;
import io.pdgateway.server.front.HeldBodies;
import io.pdgateway.server.metrics.GatewayMetrics;
import io.pdgateway.server.routing.RoutingService;
import io.pdgateway.server.trace.Tracing;
import io.vertx.core.Vertx;

/**
 * What every picker stream shares, taken from the running gateway: its routing session, its pod connections,
 * settings, metrics and tracing. So the picker and {@code serve} route through one session, with one discovery,
 * scraper and ledger.
 *
 * @param defaultBodyMode the request body mode assumed when Envoy does not say ({@code --ext-proc-body-mode})
 */
record PickerContext(GatewayServer gateway, ApiKeys apiKeys, BodyMode defaultBodyMode) {

    Vertx vertx() {
        return upstreams().vertx();
    }

    Upstreams upstreams() {
        return gateway.upstreams();
    }

    HeldBodies heldBodies() {
        return gateway.heldBodies();
    }

    RoutingService routing() {
        return gateway.routing();
    }

    GatewayMetrics metrics() {
        return gateway.metrics();
    }

    GatewaySettings settings() {
        return upstreams().settings();
    }

    Tracing tracing() {
        return upstreams().tracing();
    }

    boolean draining() {
        return gateway.draining();
    }
}
