package io.pdgateway.server.exchange;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.engine.EngineAdapters;
import io.pdgateway.server.metrics.GatewayMetrics;
import io.pdgateway.server.routing.PodOutliers;
import io.pdgateway.server.trace.Tracing;
import io.pdgateway.server.upstream.PodClients;
import io.pdgateway.server.upstream.PodGates;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;

/**
 * What every exchange shares: the event-loop runtime, the connection pools to the pods (one per serving loop), settings, metrics, the engine
 * adapters, the pods' cached plan prerequisites, tracing, outlier detection (which legs report to), and each pod's
 * connection limit ({@link PodGates}).
 */
public record Upstreams(Vertx vertx, PodClients clients, GatewaySettings settings, GatewayMetrics metrics,
        EngineAdapters engines, PrerequisiteCache prerequisites, Tracing tracing, PodOutliers outliers, PodGates gates) {

    /** The client for a leg sent from this thread: its event loop's own, so the leg's connection stays on it. */
    public HttpClient client() {
        return clients.current();
    }
}
