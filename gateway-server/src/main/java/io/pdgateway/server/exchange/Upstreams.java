package io.pdgateway.server.exchange;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.engine.EngineAdapters;
import io.pdgateway.server.metrics.GatewayMetrics;
import io.pdgateway.server.routing.PodOutliers;
import io.pdgateway.server.trace.Tracing;
import io.pdgateway.server.upstream.PodGates;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;

/**
 * What every exchange shares: the event-loop runtime, the connection pool to the pods, settings, metrics, the engine
 * adapters, the pods' cached plan prerequisites, tracing, outlier detection (which legs report to), and each pod's
 * connection limit ({@link PodGates}).
 */
public record Upstreams(Vertx vertx, HttpClient client, GatewaySettings settings, GatewayMetrics metrics,
        EngineAdapters engines, PrerequisiteCache prerequisites, Tracing tracing, PodOutliers outliers, PodGates gates) {}
