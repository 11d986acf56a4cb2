package io.pdgateway.sim;

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
final class PodContext {

    final Vertx vertx;
    final Context context;
    final SimConfig config;
    final EnginePersonality personality;
    final EngineStats stats;
    final KvPool kvPool;
    final EngineLoop loop;
    final TextGenerator text;
    final RequestRecorder recorder = new RequestRecorder();
    /** Client for side-channel calls to other pods (vLLM: the decode pod's KV fetch). */
    final HttpClient client;

    /** Completion responses begun and not yet ended, failed, dropped or abandoned. */
    final AtomicInteger openStreams = new AtomicInteger();
    /** Completion responses whose connection the client closed before the response ended. */
    final AtomicInteger streamsCancelled = new AtomicInteger();
    /** Connections the pod itself dropped mid-response (the dropAfterTokens fault). */
    final AtomicInteger connectionsDropped = new AtomicInteger();
    /** Decode-role requests that carried no KV from a prefill pod and were prefilled locally. */
    final AtomicInteger kvMissing = new AtomicInteger();
    /** KV side-channel fetches this pod answered with the KV. */
    final AtomicInteger kvTransfersServed = new AtomicInteger();
    /** Requests an abort call (SGLang's /abort_request) found in flight and dropped. */
    final AtomicInteger requestsAborted = new AtomicInteger();
    /** Requests answered with the injected error status (the errorRate fault). */
    final AtomicInteger errorsInjected = new AtomicInteger();
    /** Requests left hanging on purpose: before their headers, or after their Nth token (the hang faults). */
    final AtomicInteger hangsInjected = new AtomicInteger();
    /** TCP connections open to the pod's OpenAI server right now, whoever holds them. */
    final AtomicInteger openConnections = new AtomicInteger();
    /** Requests in flight that carry an engine request id (SGLang's rid), by that id: what an abort call names. */
    final java.util.Map<String, CompletionExchange> live = new java.util.HashMap<>();

    private SplittableRandom random;
    private volatile FaultConfig faults;
    private volatile boolean closing;
    private volatile int port;
    private volatile String engineId = "";
    private volatile int bootstrapPort = -1;

    PodContext(Vertx vertx, Context context, SimConfig config, EnginePersonality personality, HttpClient client) {
        this.vertx = vertx;
        this.context = context;
        this.config = config;
        this.personality = personality;
        this.client = client;
        this.stats = new EngineStats(personality.firstTokenBuckets(), personality.requestPhaseBuckets());
        TimingProfile timing = config.timing();
        this.kvPool = new KvPool(timing.kvCapacityTokens(), timing.blockSizeTokens());
        PrefixCache prefixCache = new PrefixCache(timing.kvCapacityTokens() / timing.blockSizeTokens(),
                timing.blockSizeTokens());
        this.loop = new EngineLoop(vertx, context, config, kvPool, prefixCache, stats);
        this.text = new TextGenerator(config.seed());
        this.random = new SplittableRandom(config.seed());
        this.faults = config.faults();
    }

    /** Called once the server listens: the port is known, and with it the engine id. */
    void bound(int actualPort) {
        this.port = actualPort;
        // Deterministic per (engine, address, seed), in the UUID form vLLM uses for engine ids.
        UUID id = UUID.nameUUIDFromBytes((config.engine() + "-sim:" + config.host() + ":" + actualPort + ":"
                + config.seed()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        this.engineId = id.toString();
        // Pods sharing a seed still draw different request ids; the generated text depends on the seed alone.
        this.random = new SplittableRandom(config.seed() ^ id.getMostSignificantBits());
    }

    int port() {
        return port;
    }

    /** The port of the engine's side server (SGLang prefill: the bootstrap server), or -1 when it runs none. */
    int bootstrapPort() {
        return bootstrapPort;
    }

    void bootstrapBound(int actualPort) {
        this.bootstrapPort = actualPort;
    }

    String engineId() {
        return engineId;
    }

    /** The host other pods reach this one at: the bind address, or loopback when bound to every interface. */
    String advertisedHost() {
        String host = config.host();
        return host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]") ? "127.0.0.1" : host;
    }

    FaultConfig faults() {
        return faults;
    }

    void setFaults(FaultConfig faults) {
        this.faults = java.util.Objects.requireNonNull(faults, "faults");
    }

    boolean closing() {
        return closing;
    }

    void markClosing() {
        closing = true;
    }

    /** Draws whether this request gets the injected error (event loop only: the generator is not thread-safe). */
    boolean drawError(FaultConfig faults) {
        return faults.errorRate() > 0 && random.nextDouble() < faults.errorRate();
    }

    /** 32 hex digits from the seed, the shape of vLLM's random request ids. */
    String randomId() {
        return String.format("%016x%016x", random.nextLong(), random.nextLong());
    }
}
