package io.pdgateway.sim.api;

import io.pdgateway.sim.EngineLoop;
import io.pdgateway.sim.EngineStats;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.KvPool;
import io.pdgateway.sim.PrefixCache;
import io.pdgateway.sim.TextTokens;
import io.pdgateway.sim.kvevents.BundledTokenizer;
import io.pdgateway.sim.kvevents.KvCacheEventSink;
import io.pdgateway.sim.kvevents.KvEventPublisher;
import java.time.InstantSource;
import io.pdgateway.sim.RequestRecorder;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.TextGenerator;
import io.pdgateway.sim.TimingProfile;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The services of one simulated pod, shared by its endpoints and its personality. Everything but the
 * counters, the faults and the recorder is used on the pod's event loop only.
 */
public final class PodContext {
    /** Loopback connects succeed or are refused at once; this bounds a side-channel call aimed at an unreachable address. */
    public static final int SIDE_CHANNEL_CONNECT_TIMEOUT_MILLIS = 5_000;

    private final Vertx vertx;
    private final Context context;
    private final SimConfig config;
    private final EnginePersonality personality;
    private final EngineStats stats;
    private final KvPool kvPool;
    private final EngineLoop loop;
    private final PrefixCache prefixCache;
    /** The KV-event publisher (--kv-events-config), or null. */
    private final KvEventPublisher kvEvents;
    private final TextTokens textTokens;
    private final TextGenerator text;
    private final RequestRecorder recorder = new RequestRecorder();
    private final HttpClient client;

    private final AtomicInteger openStreams = new AtomicInteger();
    private final AtomicInteger streamsCancelled = new AtomicInteger();
    private final AtomicInteger connectionsDropped = new AtomicInteger();
    private final AtomicInteger kvMissing = new AtomicInteger();
    private final AtomicInteger kvTransfersServed = new AtomicInteger();
    private final AtomicInteger requestsAborted = new AtomicInteger();
    private final AtomicInteger errorsInjected = new AtomicInteger();
    private final AtomicInteger hangsInjected = new AtomicInteger();
    private final AtomicInteger openConnections = new AtomicInteger();
    private final java.util.Map<String, CompletionExchange> live = new java.util.HashMap<>();

    private SplittableRandom random;
    private volatile FaultConfig faults;
    private volatile boolean closing;
    private volatile int port;
    private volatile String engineId = "";
    private volatile int bootstrapPort = -1;

    public PodContext(Vertx vertx, Context context, SimConfig config, EnginePersonality personality, HttpClient client) {
        this.vertx = vertx;
        this.context = context;
        this.config = config;
        this.personality = personality;
        this.client = client;
        this.stats = new EngineStats(personality.firstTokenBuckets(), personality.requestPhaseBuckets());
        TimingProfile timing = config.timing();
        this.kvPool = new KvPool(timing.kvCapacityTokens(), timing.blockSizeTokens());
        this.kvEvents = config.kvEvents().publishes() ? new KvEventPublisher(config.kvEvents(),
                config.engine().equals("sglang") ? KvEventPublisher.Layout.ARRAY : KvEventPublisher.Layout.MAP,
                InstantSource.system()) : null;
        this.textTokens = config.tokenizes() ? TextTokens.of(BundledTokenizer.get(),
                BundledTokenizer.chatTemplate()) : TextTokens.CHARACTERS;
        this.prefixCache = new PrefixCache(timing.kvCapacityTokens() / timing.blockSizeTokens(),
                timing.blockSizeTokens(), kvEvents == null ? KvCacheEventSink.NONE : kvEvents);
        this.loop = new EngineLoop(vertx, context, config, kvPool, prefixCache, stats);
        this.text = new TextGenerator(config.seed());
        this.random = new SplittableRandom(config.seed());
        this.faults = config.faults();
    }

    public Vertx vertx() {
        return vertx;
    }

    public Context context() {
        return context;
    }

    public SimConfig config() {
        return config;
    }

    public EnginePersonality personality() {
        return personality;
    }

    public EngineStats stats() {
        return stats;
    }

    public KvPool kvPool() {
        return kvPool;
    }

    public EngineLoop loop() {
        return loop;
    }

    /** The KV-event publisher, or null when the pod publishes none. */
    public KvEventPublisher kvEvents() {
        return kvEvents;
    }

    /** How this pod turns prompt text into tokens. */
    public TextTokens textTokens() {
        return textTokens;
    }

    public PrefixCache prefixCache() {
        return prefixCache;
    }

    public TextGenerator text() {
        return text;
    }

    public RequestRecorder recorder() {
        return recorder;
    }

    /** Client for side-channel calls to other pods (vLLM: the decode pod's KV fetch). */
    public HttpClient client() {
        return client;
    }

    /** Completion responses begun and not yet ended, failed, dropped or abandoned. */
    public AtomicInteger openStreams() {
        return openStreams;
    }

    /** Completion responses whose connection the client closed before the response ended. */
    public AtomicInteger streamsCancelled() {
        return streamsCancelled;
    }

    /** Connections the pod itself dropped mid-response (the dropAfterTokens fault). */
    public AtomicInteger connectionsDropped() {
        return connectionsDropped;
    }

    /** Decode-role requests that carried no KV from a prefill pod and were prefilled locally. */
    public AtomicInteger kvMissing() {
        return kvMissing;
    }

    /** KV side-channel fetches this pod answered with the KV. */
    public AtomicInteger kvTransfersServed() {
        return kvTransfersServed;
    }

    /** Requests an abort call (SGLang's /abort_request) found in flight and dropped. */
    public AtomicInteger requestsAborted() {
        return requestsAborted;
    }

    /** Requests answered with the injected error status (the errorRate fault). */
    public AtomicInteger errorsInjected() {
        return errorsInjected;
    }

    /** Requests left hanging on purpose: before their headers, or after their Nth token (the hang faults). */
    public AtomicInteger hangsInjected() {
        return hangsInjected;
    }

    /** TCP connections open to the pod's OpenAI server right now, whoever holds them. */
    public AtomicInteger openConnections() {
        return openConnections;
    }

    /** Requests in flight that carry an engine request id (SGLang's rid), by that id: what an abort call names. */
    public java.util.Map<String, CompletionExchange> live() {
        return live;
    }

    /** Called once the server listens: the port is known, and with it the engine id. */
    public void bound(int actualPort) {
        this.port = actualPort;
        // Deterministic per (engine, address, seed), in the UUID form vLLM uses for engine ids.
        UUID id = UUID.nameUUIDFromBytes((config.engine() + "-sim:" + config.host() + ":" + actualPort + ":"
                + config.seed()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        this.engineId = id.toString();
        // Pods sharing a seed still draw different request ids; the generated text depends on the seed alone.
        this.random = new SplittableRandom(config.seed() ^ id.getMostSignificantBits());
    }

    public int port() {
        return port;
    }

    /** The port of the engine's side server (SGLang prefill: the bootstrap server), or -1 when it runs none. */
    public int bootstrapPort() {
        return bootstrapPort;
    }

    public void bootstrapBound(int actualPort) {
        this.bootstrapPort = actualPort;
    }

    public String engineId() {
        return engineId;
    }

    /** The host other pods reach this one at: the bind address, or loopback when bound to every interface. */
    public String advertisedHost() {
        String host = config.host();
        return host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]") ? "127.0.0.1" : host;
    }

    public FaultConfig faults() {
        return faults;
    }

    public void setFaults(FaultConfig faults) {
        this.faults = java.util.Objects.requireNonNull(faults, "faults");
    }

    public boolean closing() {
        return closing;
    }

    public void markClosing() {
        closing = true;
    }

    /** Draws whether this request gets the injected error (event loop only: the generator is not thread-safe). */
    public boolean drawError(FaultConfig faults) {
        return faults.errorRate() > 0 && random.nextDouble() < faults.errorRate();
    }

    /** 32 hex digits from the seed, the shape of vLLM's random request ids. */
    public String randomId() {
        return String.format("%016x%016x", random.nextLong(), random.nextLong());
    }
}
