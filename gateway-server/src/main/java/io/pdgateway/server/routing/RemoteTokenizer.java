package io.pdgateway.server.routing;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.engine.EngineAdapter;
import io.pdgateway.engine.EngineAdapters;
import io.pdgateway.server.front.OpenAiRequest;
import io.pdgateway.server.front.OpenAiRequestParser;
import io.pdgateway.server.http.RateLimitedLog;
import io.pdgateway.server.kvevents.EngineTokenizeClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request's prompt tokens from an engine's own {@code /tokenize} ({@code AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE=remote}):
 * the operator's tokenizer service when one is named, else one of the request's own model pods whose engine has the
 * endpoint (vLLM for every request, SGLang for prompts), in turn. Only discovered pods or the operator's address are
 * ever asked, never an address from the request.
 *
 * <p>Never in the way: a request waits at most the timeout, and without an answer (an error, the timeout,
 * {@value #MAX_IN_FLIGHT} calls already out, or a request no engine of its model can tokenize: chat on SGLang pods, a
 * batch of prompts) it is routed as if the model had no tokenizer, and {@value #REQUESTS}{@code _total{outcome}} says
 * why.
 */
public final class RemoteTokenizer {
    public static final String REQUESTS = "pd_gateway_remote_tokenizer_requests";
    public static final String DURATION = "pd_gateway_remote_tokenizer_duration_seconds";
    public static final String IN_FLIGHT = "pd_gateway_remote_tokenizer_in_flight";
    /**
     * Calls out at once, over all requests: each holds a connection to an engine, and past this many the engines are
     * not keeping up, so more calls would only add waits.
     */
    static final int MAX_IN_FLIGHT = 256;
    private static final Logger LOG = LoggerFactory.getLogger(RemoteTokenizer.class);
    private static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** How a call ended, the {@code outcome} label. */
    enum Outcome { OK, ERROR, TIMEOUT, BUSY, UNSUPPORTED }

    private final int maxInFlight;
    private final Vertx vertx;
    private final EngineTokenizeClient client;
    private final EngineAdapters engines;
    private final RemoteTokenizerSettings settings;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger turn = new AtomicInteger();
    private final Map<Outcome, Counter> outcomes = new EnumMap<>(Outcome.class);
    private final Timer answered;
    private final RateLimitedLog failures = new RateLimitedLog(LOG, "engine /tokenize calls failed",
            LOG_INTERVAL_NANOS, System::nanoTime);

    /** @param http the calling thread's HTTP client (a serving loop's own) */
    public RemoteTokenizer(Vertx vertx, Supplier<HttpClient> http, EngineAdapters engines,
            RemoteTokenizerSettings settings, MeterRegistry registry) {
        this(vertx, http, engines, settings, registry, MAX_IN_FLIGHT);
    }

    RemoteTokenizer(Vertx vertx, Supplier<HttpClient> http, EngineAdapters engines, RemoteTokenizerSettings settings,
            MeterRegistry registry, int maxInFlight) {
        this.maxInFlight = maxInFlight;
        this.vertx = vertx;
        // The call's own socket bounds are twice the wait, so the wait's timer, not the socket, decides when a request
        // stops waiting (and counts it a timeout); the socket still closes soon after.
        this.client = new EngineTokenizeClient(vertx, http, 2 * settings.timeoutMs());
        this.engines = engines;
        this.settings = settings;
        for (Outcome outcome : Outcome.values()) {
            outcomes.put(outcome, Counter.builder(REQUESTS).description("Prompts for an engine's /tokenize, by how "
                    + "the call ended (ok; error, timeout, busy or unsupported: routed without the engine's tokens)")
                    .tag("outcome", outcome.name().toLowerCase(Locale.ROOT)).register(registry));
        }
        this.answered = Timer.builder(DURATION).description("Time an engine's /tokenize took to answer a prompt")
                .publishPercentileHistogram().register(registry);
        Gauge.builder(IN_FLIGHT, inFlight, AtomicInteger::get).strongReference(true)
                .description("Calls to an engine's /tokenize out now (at most " + maxInFlight + ")").register(registry);
    }

    /**
     * The engine's tokens for the request's prompt, or null when none came in time. Never fails; completes on the
     * caller's event loop.
     */
    public Future<int[]> tokens(OpenAiRequest request, ModelPods model) {
        boolean chat = OpenAiRequestParser.CHAT_PATH.equals(request.path());
        Target target = target(model.pods(), chat);
        Buffer body = target == null ? null : TokenizeBody.of(request, chat);
        if (body == null) {
            return skipped(Outcome.UNSUPPORTED);
        }
        if (inFlight.incrementAndGet() > maxInFlight) {
            inFlight.decrementAndGet();
            return skipped(Outcome.BUSY);
        }
        long start = System.nanoTime();
        Promise<int[]> tokens = Promise.promise();
        // The wait's end and the call's race; the first settles the request. Counted before the request goes on, so
        // whoever sees it routed also sees why in the metrics.
        AtomicBoolean settled = new AtomicBoolean();
        long timer = vertx.setTimer(settings.timeoutMs(), id -> {
            if (settled.compareAndSet(false, true)) {
                outcomes.get(Outcome.TIMEOUT).increment();
                tokens.complete(null);
            }
        });
        client.post(target.host(), target.port(), target.ssl(), body).onComplete(ar -> {
            inFlight.decrementAndGet();
            vertx.cancelTimer(timer);
            if (!settled.compareAndSet(false, true)) {
                return;
            }
            if (ar.succeeded()) {
                outcomes.get(Outcome.OK).increment();
                answered.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                tokens.complete(ar.result());
            } else {
                outcomes.get(Outcome.ERROR).increment();
                failures.note(target.host() + ":" + target.port() + ": " + ar.cause().getMessage());
                tokens.complete(null);
            }
        });
        return tokens.future();
    }

    private Future<int[]> skipped(Outcome why) {
        outcomes.get(why).increment();
        return Future.succeededFuture();
    }

    /** Where a prompt is sent. */
    private record Target(String host, int port, boolean ssl) {}

    /** The operator's service, else the next of the model's pods (in turn) whose engine can tokenize this request. */
    private Target target(List<Pod> pods, boolean chat) {
        RemoteTokenizerSettings.Endpoint endpoint = settings.endpoint();
        if (endpoint != null) {
            return new Target(endpoint.host(), endpoint.port(), endpoint.ssl());
        }
        int n = pods.size();
        if (n == 0) {
            return null;
        }
        int first = Math.floorMod(turn.getAndIncrement(), n);
        for (int i = 0; i < n; i++) {
            Pod pod = pods.get((first + i) % n);
            EngineAdapter adapter = engines.forEngine(pod.engine());
            if (adapter != null && adapter.tokenize().takes(chat)) {
                return new Target(pod.ip(), pod.port(), false);
            }
        }
        return null;
    }
}
