package io.pdgateway.server;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.engine.EngineAdapters;
import io.pdgateway.server.discovery.PodSource;
import io.pdgateway.core.session.RoutingSession;
import io.pdgateway.core.session.SessionClock;
import io.pdgateway.server.exchange.PrerequisiteCache;
import io.pdgateway.server.exchange.Upstreams;
import io.pdgateway.core.config.FrontSettings;
import io.pdgateway.server.front.ApiKeys;
import io.pdgateway.server.front.ClientConnections;
import io.pdgateway.server.front.CorsPolicy;
import io.pdgateway.server.front.HeldBodies;
import io.pdgateway.server.front.Listeners;
import io.pdgateway.server.front.OpenAiFront;
import io.pdgateway.server.kvevents.KvEventMetrics;
import io.pdgateway.server.kvevents.KvEventsFollower;
import io.pdgateway.server.kvevents.KvEventsSettings;
import io.micrometer.core.instrument.Gauge;
import io.pdgateway.server.metrics.BucketPlanGauges;
import io.pdgateway.server.metrics.GatewayMetrics;
import io.pdgateway.server.metrics.PodConnectionGauges;
import io.pdgateway.server.redis.SharedLedgerSync;
import io.pdgateway.server.metrics.RoutingModelGauges;
import io.pdgateway.server.metrics.TokenLoadGauges;
import io.pdgateway.core.model.Pod;
import io.pdgateway.server.routing.ModelTokenizers;
import io.pdgateway.server.routing.RemoteTokenizer;
import io.pdgateway.server.routing.PodOutliers;
import io.pdgateway.server.routing.PromptTokenizer;
import io.pdgateway.server.routing.RoutingService;
import io.pdgateway.server.routing.TokenizerAgreement;
import io.pdgateway.server.scrape.EngineMetricsScraper;
import io.pdgateway.server.scrape.MetricsStore;
import io.pdgateway.server.trace.Tracing;
import io.pdgateway.server.upstream.PodClients;
import io.pdgateway.server.upstream.PodGates;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.PoolOptions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The gateway process's HTTP side, assembled: front, routing, exchange, metrics. Start one per port. */
public final class GatewayServer {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayServer.class);
    /** Request headers beyond this many bytes get 431: nginx's large_client_header_buffers allows 4 x 8 KiB. */
    static final int MAX_HEADER_BYTES = 16 * 1024;
    /** HTTP/2 streams a client may have open on one connection: Envoy's and nginx's recommended 100/128. */
    static final long HTTP2_MAX_CONCURRENT_STREAMS = 100;
    /** A pod that does not accept a TCP connection within this time is treated as unreachable. */
    static final int CONNECT_TIMEOUT_MS = 5_000;
    /**
     * An idle pod connection is closed after this long: under uvicorn's 5 s keep-alive (vLLM's, SGLang's and
     * TensorRT-LLM's OpenAI servers), so the gateway never sends a leg on a connection the pod is closing; and the
     * pool stays the size of recent concurrency (Vert.x scans every pooled connection to lend one; a burst's thousand
     * connections kept for Vert.x's default 60 s cost each request a scan of all of them).
     */
    static final int POD_KEEP_ALIVE_SECONDS = 4;
    /** The routing session's upkeep (drain rates, prefix expiry, janitor, replanning, departed pods) ticks this often. */
    static final long UPKEEP_INTERVAL_MS = RoutingSession.TICK_NANOS / 1_000_000;

    private final Vertx vertx;
    private final PodSource pods;
    private final GatewayMetrics metrics;
    private final RoutingService routing;
    private final PodClients clients;
    private final EngineMetricsScraper scraper;
    private final PodOutliers outliers;
    private Listeners listeners;
    private long upkeepTimer = -1;
    private final EngineAdapters engines;
    private final BucketPlanGauges bucketGauges;
    private final TokenLoadGauges tokenGauges;
    private final KvEventsFollower kvEvents;
    private final TokenizerAgreement tokenizerAgreement;
    private final RoutingModelGauges modelGauges;
    private final SharedLedgerSync sharedLedger;
    private volatile boolean draining;
    private Upstreams upstreams;
    private final PodGates gates;
    private final PodConnectionGauges connectionGauges;
    /** The request bodies every front (the HTTP listeners, an ext_proc picker) holds at once. */
    private final HeldBodies heldBodies;

    private GatewayServer(Vertx vertx, PodSource pods, GatewaySettings settings, KvEventsSettings kvEventsSettings,
            ModelTokenizers tokenizers, long seed) {
        this.vertx = vertx;
        this.pods = pods;
        this.metrics = new GatewayMetrics();
        this.engines = EngineAdapters.create(settings.engines(), roomGenerator(), InstantSource.system());
        MetricsStore store = new MetricsStore(EngineMetricsScraper.STALE_AFTER_NANOS, System::nanoTime);
        this.outliers = new PodOutliers(settings.upstream(), metrics.registry(), System::nanoTime);
        this.scraper = new EngineMetricsScraper(vertx, pods, engines, store, settings.scrape().refreshIntervalMs(),
                settings.upstream().scrapeMaxPerInterval(), settings.upstream().scrapeMaxBackoffMillis(),
                new EngineMetricsScraper.Outcome() {
                    @Override
                    public void failed(Pod pod, String why) {
                        metrics.scrapeFailed(pod);
                        outliers.failed(pod, why);
                    }

                    @Override
                    public void answered(Pod pod) {
                        outliers.answered(pod);
                    }
                });
        int poolSize = PodGates.poolSize(settings.upstream().connections());
        this.clients = new PodClients(() -> vertx.createHttpClient(
                new HttpClientOptions().setConnectTimeout(CONNECT_TIMEOUT_MS).setKeepAliveTimeout(POD_KEEP_ALIVE_SECONDS),
                new PoolOptions().setHttp1MaxSize(poolSize)));
        RemoteTokenizer remote = tokenizers.remote() == null ? null
                : new RemoteTokenizer(vertx, clients::current, engines, tokenizers.remote(), metrics.registry());
        this.routing = new RoutingService(pods, settings.routing(), store, seed, SessionClock.SYSTEM, tokenizers,
                remote);
        RoutingSession session = routing.session();
        session.ejectWith(outliers.detector());
        this.tokenGauges = new TokenLoadGauges(metrics.registry(), session.tokens());
        this.modelGauges = new RoutingModelGauges(metrics.registry(), session.prefillModels(), session.caches(),
                scraper.cacheHits());
        this.bucketGauges = new BucketPlanGauges(metrics.registry());
        // Pods whose metadata names a KV-event endpoint get their cache view fed by their engine's own events.
        this.kvEvents = new KvEventsFollower(kvEventsSettings, session.caches(), new KvEventMetrics(metrics.registry()),
                System::nanoTime, tokenizers::unlikeEngines);
        this.tokenizerAgreement = new TokenizerAgreement(vertx, clients::current, engines, tokenizers);
        if (settings.redis().configured()) {
            this.sharedLedger = new SharedLedgerSync(vertx, settings.redis().host(), settings.redis().port(),
                    settings.redis().password(), session.requests(), session.tokens(), settings.redis().sharedLedger());
            session.shareWith(sharedLedger::remote);
            Gauge.builder("pd_gateway_redis_degraded", sharedLedger, s -> s.degraded() ? 1 : 0)
                    .description("1 while Redis is unreachable and this replica routes on its own view only")
                    .register(metrics.registry());
        } else {
            this.sharedLedger = null;
        }
        // Legs take a slot of their pod's gate first (PD_GATEWAY_UPSTREAM_MAX_CONNECTIONS_PER_POD); the pool itself
        // is sized above that, so it never makes a gated leg wait, and a pod's control calls find room.
        this.gates = new PodGates(vertx, settings.upstream().connections(), this::gateAdded);
        this.connectionGauges = new PodConnectionGauges(metrics.registry(), gates);
        metrics.discovery(pods::connected, () -> pods.current().podCount());
        metrics.servedModels(model -> pods.current().model(model) != null);
        metrics.draining(() -> draining);
        heldBodies = new HeldBodies(settings.front().heldBodyLimit());
        metrics.heldBodies(heldBodies::held, heldBodies.limit());
    }

    /** A pod got its connection gate (its first routed request): its series appear on /metrics now. */
    private void gateAdded(String podId) {
        connectionGauges.add(podId);
    }

    public static Future<GatewayServer> start(Vertx vertx, PodSource pods, GatewaySettings settings, String host, int port,
            long seed) {
        return start(vertx, pods, settings, host, port, seed, Tracing.off());
    }

    /** @param tracing where the request spans go (the caller closes it); {@link Tracing#off()} for none */
    public static Future<GatewayServer> start(Vertx vertx, PodSource pods, GatewaySettings settings, String host, int port,
            long seed, Tracing tracing) {
        return start(vertx, pods, settings, KvEventsSettings.defaults(), ModelTokenizers.NONE, host, port, seed,
                tracing);
    }

    /**
     * @param kvEvents how the engines' KV-event streams are followed (PD_GATEWAY_KV_EVENTS_*)
     * @param tokenizers each model's own tokenizer, loaded by the caller ({@link ModelTokenizers#fromEnv})
     */
    public static Future<GatewayServer> start(Vertx vertx, PodSource pods, GatewaySettings settings,
            KvEventsSettings kvEvents, ModelTokenizers tokenizers, String host, int port, long seed, Tracing tracing) {
        ApiKeys apiKeys;
        CorsPolicy cors;
        try {
            apiKeys = ApiKeys.load(settings);
            cors = CorsPolicy.load(settings);
        } catch (IllegalArgumentException e) {
            return Future.failedFuture(e);
        }
        PromptTokenizer.warmUp();
        GatewayServer gateway = new GatewayServer(vertx, pods, settings, kvEvents, tokenizers, seed);
        Upstreams up = new Upstreams(vertx, gateway.clients, settings, gateway.metrics, gateway.engines,
                new PrerequisiteCache(vertx, gateway.clients.shared(), InstantSource.system()), tracing,
                gateway.outliers, gateway.gates);
        gateway.upstreams = up;
        OpenAiFront front = new OpenAiFront(up, gateway.routing, pods, () -> gateway.draining, apiKeys,
                cors);
        HttpServerOptions options = ClientConnections.listenerOptions(serverOptions(settings.front()),
                settings.front().requestHeaderTimeoutSeconds());
        ClientConnections connections = new ClientConnections(vertx, options,
                settings.front().requestHeaderTimeoutSeconds(), settings.front().keepAliveTimeoutSeconds(),
                gateway.metrics);
        return Listeners.start(vertx, settings.front().eventLoopCount(), options, host, port, connections, req -> {
                    HeldBodies.Account body = gateway.heldBodies.open();
                    connections.requestStarted(req, body::release);
                    front.handle(req, body);
                }, front.undecodableRequests(options), gateway.clients)
                .map(listeners -> {
                    gateway.listeners = listeners;
                    gateway.scraper.start();
                    if (gateway.sharedLedger != null) {
                        gateway.sharedLedger.start();
                    }
                    // Off the event loop: replanning buckets and sweeping thousands of pods take milliseconds.
                    gateway.upkeepTimer = vertx.setPeriodic(UPKEEP_INTERVAL_MS, id -> vertx.executeBlocking(
                            () -> {
                                RoutingSession.Upkeep upkeep = gateway.routing.session().tick();
                                gateway.kvEvents.sync(); // after the tick: the cache views know the pods now
                                return upkeep;
                            }, false).onSuccess(upkeep -> {
                                gateway.tokenGauges.sync();
                                gateway.modelGauges.sync();
                                gateway.gates.forgetDeparted(pods.current());
                                gateway.connectionGauges.sync();
                                gateway.tokenizerAgreement.check(gateway.kvEvents.publishingPods());
                                if (upkeep.newPlan() != null) {
                                    gateway.bucketGauges.show(upkeep.newPlan());
                                }
                            }));
                    return gateway;
                });
    }

    /**
     * The client listener: 16 KiB of headers (431 beyond), and HTTP/2 over cleartext only when asked for, then with
     * at most {@link #HTTP2_MAX_CONCURRENT_STREAMS} streams a connection and Vert.x's reset-flood limit (200 resets
     * in 30 s close the connection). No WebSocket compression: the gateway serves no WebSockets, and offering it puts
     * an extension handler in every connection's pipeline that each relayed chunk passes through.
     */
    static HttpServerOptions serverOptions(FrontSettings front) {
        HttpServerOptions options = new HttpServerOptions().setMaxHeaderSize(MAX_HEADER_BYTES)
                .setHttp2ClearTextEnabled(front.http2Cleartext())
                .setPerFrameWebSocketCompressionSupported(false).setPerMessageWebSocketCompressionSupported(false);
        options.getInitialSettings().setMaxConcurrentStreams(HTTP2_MAX_CONCURRENT_STREAMS);
        return options;
    }

    /**
     * SGLang bootstrap rooms must differ across gateway replicas that share prefill pods, so they never come from the
     * routing seed (a fixed seed in tests and the demo): a generator seeded from the OS's secure source.
     */
    private static RandomGenerator roomGenerator() {
        return new SplittableRandom(new SecureRandom().nextLong());
    }

    public int port() {
        return listeners.port();
    }

    public RoutingService routing() {
        return routing;
    }

    /** What the exchanges share (the endpoint picker runs its prefill legs through the same). */
    public Upstreams upstreams() {
        return upstreams;
    }

    /** The pod source this gateway routes over. */
    public PodSource pods() {
        return pods;
    }

    /** Draining: /readyz fails (and the endpoint picker reports NOT_SERVING). */
    public boolean draining() {
        return draining;
    }

    public HeldBodies heldBodies() {
        return heldBodies;
    }

    public GatewayMetrics metrics() {
        return metrics;
    }

    /** Fail /readyz from now on (the first step of a graceful stop). */
    public void drain() {
        draining = true;
    }

    /**
     * The graceful stop behind SIGTERM: /readyz fails, the listener closes (new connections are refused), a request
     * that still arrives on an open keep-alive connection is answered 503, and requests in flight run to their end
     * for up to {@code grace}. Only what is still open then is cut. Completes when everything is closed.
     */
    public Future<Void> drainAndClose(Duration grace) {
        drain();
        kvEvents.close(); // here, on the caller's thread: it joins the poller thread, never on an event loop
        long started = System.nanoTime();
        LOG.info("draining: {} requests in flight, grace period {} s", metrics.inFlight(), grace.toSeconds());
        return listeners.shutdown(grace.toMillis()).eventually(() -> {
            // Vert.x completes the shutdown when the last connection closed, or at the deadline after closing the rest.
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            if (tookMs >= grace.toMillis()) {
                LOG.warn("grace period over after {} ms: connections still open were closed", tookMs);
            } else {
                LOG.info("drained in {} ms", tookMs);
            }
            pods.close();
            metrics.close();
            return listeners.close().eventually(clients::close);
        });
    }

    public Future<Void> close() {
        vertx.cancelTimer(upkeepTimer);
        scraper.close();
        kvEvents.close();
        if (sharedLedger != null) {
            sharedLedger.close();
        }
        pods.close();
        metrics.close();
        return listeners.close().eventually(clients::close);
    }
}
