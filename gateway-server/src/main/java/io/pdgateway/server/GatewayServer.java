package io.pdgateway.server;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.engine.EngineAdapters;
import io.pdgateway.server.discovery.PodSource;
import io.pdgateway.server.exchange.ServerInfoCache;
import io.pdgateway.server.exchange.Upstreams;
import io.pdgateway.server.front.OpenAiFront;
import io.pdgateway.server.metrics.GatewayMetrics;
import io.pdgateway.server.routing.PromptTokenizer;
import io.pdgateway.server.routing.RoutingService;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.PoolOptions;
import java.security.SecureRandom;
import java.time.InstantSource;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/** The gateway process's HTTP side, assembled: front, routing, exchange, metrics. Start one per port. */
public final class GatewayServer {
    /** Pod connections per pod: streams hold a connection each, so this bounds concurrent streams per pod. */
    static final int MAX_CONNECTIONS_PER_POD = 1024;
    /** A pod that does not accept a TCP connection within this time is treated as unreachable. */
    static final int CONNECT_TIMEOUT_MS = 5_000;

    private final Vertx vertx;
    private final PodSource pods;
    private final GatewayMetrics metrics;
    private final RoutingService routing;
    private final HttpClient client;
    private HttpServer server;
    private volatile boolean draining;

    private GatewayServer(Vertx vertx, PodSource pods, GatewaySettings settings, long seed) {
        this.vertx = vertx;
        this.pods = pods;
        this.metrics = new GatewayMetrics();
        this.routing = new RoutingService(pods, settings, seed);
        this.client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(CONNECT_TIMEOUT_MS),
                new PoolOptions().setHttp1MaxSize(MAX_CONNECTIONS_PER_POD));
    }

    public static Future<GatewayServer> start(Vertx vertx, PodSource pods, GatewaySettings settings, String host, int port,
            long seed) {
        if (settings.promptLengthBucketing()) {
            PromptTokenizer.warmUp();
        }
        GatewayServer gateway = new GatewayServer(vertx, pods, settings, seed);
        Upstreams up = new Upstreams(vertx, gateway.client, settings, gateway.metrics,
                EngineAdapters.create(settings, roomGenerator(), InstantSource.system()),
                new ServerInfoCache(vertx, gateway.client, InstantSource.system()));
        OpenAiFront front = new OpenAiFront(up, gateway.routing, pods, () -> gateway.draining);
        return vertx.createHttpServer(new HttpServerOptions().setMaxHeaderSize(16 * 1024))
                .requestHandler(front)
                .listen(port, host)
                .map(server -> {
                    gateway.server = server;
                    return gateway;
                });
    }

    /**
     * SGLang bootstrap rooms must differ across gateway replicas that share prefill pods, so they never come from the
     * routing seed (a fixed seed in tests and the demo): a generator seeded from the OS's secure source.
     */
    private static RandomGenerator roomGenerator() {
        return new SplittableRandom(new SecureRandom().nextLong());
    }

    public int port() {
        return server.actualPort();
    }

    public RoutingService routing() {
        return routing;
    }

    public GatewayMetrics metrics() {
        return metrics;
    }

    /** Fail /readyz from now on (the first step of a graceful stop). */
    public void drain() {
        draining = true;
    }

    public Future<Void> close() {
        pods.close();
        return server.close().compose(v -> client.close());
    }
}
