package io.pdgateway.server.exchange;

import io.pdgateway.core.model.Pod;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.PodPrerequisite;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The per-pod metadata an engine's plan needs before either leg is sent ({@link PodPrerequisite}: TensorRT-LLM
 * generation_first reads the context worker's {@code /server_info}), looked up lazily (pods need not exist when the
 * gateway starts) and kept for a minute, so only the first request to a pod in each minute waits for it. Concurrent misses for one worker share one lookup; a failed lookup is not kept, so the next request asks again.
 * Keyed by pod identity and address: a pod that came back on another IP is another pod. Thread-safe; completes
 * its futures on the event loop that started the lookup (callers hop back to their own).
 */
public final class PrerequisiteCache {
    /** Spec, "TensorRT-LLM Parallel Scheduling": 3-second lookup timeout. */
    static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(3);
    /** Spec: 1-minute TTL. */
    static final Duration TTL = Duration.ofMinutes(1);
    /** Bounds the map when pods churn: far more context workers than one gateway routes to. */
    static final int MAX_ENTRIES = 1024;

    private record Entry(Future<Object> info, Instant expires) {}

    private final Vertx vertx;
    private final HttpClient client;
    private final InstantSource clock;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    public PrerequisiteCache(Vertx vertx, HttpClient client, InstantSource clock) {
        this.vertx = vertx;
        this.client = client;
        this.clock = clock;
    }

    /** The pod's metadata: from the cache, or from a lookup (shared with concurrent callers). */
    public Future<Object> get(Pod pod, PodPrerequisite prerequisite) {
        String key = pod.id() + "@" + pod.address() + prerequisite.path();
        Instant now = clock.instant();
        Entry cached = entries.get(key);
        if (cached != null && (!cached.info().isComplete() || now.isBefore(cached.expires()))) {
            return cached.info();
        }
        Promise<Object> promise = Promise.promise();
        Entry fresh = new Entry(promise.future(), Instant.MAX);
        Entry raced = entries.compute(key, (k, old) -> old == null || old == cached ? fresh : old);
        if (raced != fresh) {
            return raced.info();
        }
        if (entries.size() > MAX_ENTRIES) {
            entries.entrySet().removeIf(e -> e.getValue().info().isComplete() && !now.isBefore(e.getValue().expires()));
        }
        lookUp(pod, prerequisite).onComplete(done -> {
            if (done.succeeded()) {
                entries.replace(key, fresh, new Entry(fresh.info(), clock.instant().plus(TTL)));
            } else {
                entries.remove(key, fresh);
            }
            promise.handle(done);
        });
        return promise.future();
    }

    private Future<Object> lookUp(Pod pod, PodPrerequisite prerequisite) {
        String path = prerequisite.path();
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setHost(pod.ip()).setPort(pod.port())
                .setURI(path);
        return PodCall.send(vertx, client, options, null, LOOKUP_TIMEOUT.toMillis()).compose(answer -> {
            if (answer.status() != 200) {
                return Future.failedFuture(path + " answered " + answer.status());
            }
            try {
                return Future.succeededFuture(prerequisite.parser().parse(answer.body()));
            } catch (EngineProtocolException e) {
                return Future.failedFuture(e.getMessage());
            }
        });
    }
}
