package io.pdgateway.server.scrape;

import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.engine.EngineAdapters;
import io.pdgateway.engine.EngineMetricNames;
import io.pdgateway.server.discovery.PodSource;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Scrapes every pod's Prometheus endpoint every AIBRIX_POD_METRIC_REFRESH_INTERVAL_MS and publishes the routing
 * signals to the {@link MetricsStore}. Asynchronous and bounded: at most one scrape per pod and
 * {@link #MAX_CONCURRENT_SCRAPES} overall are in flight, each with a timeout, so a slow or dead pod only makes its own
 * metrics stale and never delays routing or the other pods' scrapes.
 */
public final class EngineMetricsScraper implements AutoCloseable {
    /** Upstream runs 10 scrape workers; async scrapes are cheap, but a bound still protects pods and the gateway. */
    static final int MAX_CONCURRENT_SCRAPES = 32;
    /** A scrape slower than this is abandoned; the pod's metrics turn stale if it keeps failing. */
    static final long SCRAPE_TIMEOUT_MS = 1_000;
    /** Metrics older than this read as absent: two missed scrape timeouts. */
    public static final long STALE_AFTER_NANOS = 2 * SCRAPE_TIMEOUT_MS * 1_000_000L;

    private final Vertx vertx;
    private final EngineAdapters engines;
    private final PodSource pods;
    private final MetricsStore store;
    private final long intervalMs;
    private final HttpClient client;
    private final Consumer<Pod> failed;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final Map<String, CounterRate> generationRates = new ConcurrentHashMap<>();
    private long timer = -1;

    /** @param failed told of every scrape that failed or timed out (the pod's metrics then age out) */
    public EngineMetricsScraper(Vertx vertx, PodSource pods, EngineAdapters engines, MetricsStore store,
            long intervalMs, Consumer<Pod> failed) {
        this.vertx = vertx;
        this.engines = engines;
        this.pods = pods;
        this.store = store;
        this.intervalMs = intervalMs;
        this.failed = failed;
        this.client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout((int) SCRAPE_TIMEOUT_MS),
                new PoolOptions().setHttp1MaxSize(1));
    }

    public void start() {
        timer = vertx.setPeriodic(intervalMs, id -> scrapeAll());
    }

    private void scrapeAll() {
        ClusterSnapshot snapshot = pods.current();
        Set<String> present = new HashSet<>();
        for (ModelPods model : snapshot.models()) {
            for (Pod pod : model.pods()) {
                present.add(pod.id());
                if (inFlight.size() < MAX_CONCURRENT_SCRAPES && inFlight.add(pod.id())) {
                    scrape(pod);
                }
            }
        }
        store.retainOnly(present);
        generationRates.keySet().retainAll(present);
    }

    private void scrape(Pod pod) {
        EngineMetricNames names = engines.metricsOf(pod.engine());
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setHost(pod.ip())
                .setPort(pod.metricPort()).setURI(names.path()).setTimeout(SCRAPE_TIMEOUT_MS);
        client.request(options)
                .compose(req -> req.send())
                .compose(resp -> resp.statusCode() == 200 ? resp.body() : io.vertx.core.Future.failedFuture(
                        "HTTP " + resp.statusCode()))
                .onComplete(ar -> {
                    inFlight.remove(pod.id());
                    if (ar.succeeded()) {
                        long now = System.nanoTime();
                        String text = ar.result().toString(StandardCharsets.UTF_8);
                        Map<String, Double> values = PrometheusText.sums(text, names.wanted());
                        store.put(pod.id(), toMetrics(pod, names, values, kvCapacityTokens(names, text, values), now));
                    } else {
                        failed.accept(pod);
                    }
                });
    }

    /** The engine's KV cache size in tokens, or NaN when it reports none. */
    static double kvCapacityTokens(EngineMetricNames names, String text, Map<String, Double> values) {
        if (names.cacheConfigInfo() != null) {
            Map<String, String> config = PrometheusText.labels(text, names.cacheConfigInfo());
            try {
                double blocks = Double.parseDouble(config.getOrDefault("num_gpu_blocks", ""));
                double blockSize = Double.parseDouble(config.getOrDefault("block_size", ""));
                if (blocks > 0 && blockSize > 0) {
                    return blocks * blockSize;
                }
            } catch (NumberFormatException e) {
                // no usable cache config: fall through
            }
        }
        Double gauge = names.kvCapacityGauge() == null ? null : values.get(names.kvCapacityGauge());
        return gauge != null && gauge > 0 ? gauge : Double.NaN;
    }

    private PodMetrics toMetrics(Pod pod, EngineMetricNames names, Map<String, Double> v, double kvCapacity,
            long now) {
        double kv = get(v, names.kvUsage());
        if (Double.isNaN(kv)) {
            kv = get(v, names.kvUsageFallback());
        }
        double throughput = get(v, names.throughputGauge());
        double generated = get(v, names.generationCounter());
        if (!Double.isNaN(generated)) {
            double derived = generationRates.computeIfAbsent(pod.id(), k -> new CounterRate()).add(now, generated);
            if (Double.isNaN(throughput)) {
                throughput = derived;
            }
        }
        double avgPrefillMs = Double.NaN;
        if (names.prefillTimeHistogram() != null) {
            double sum = get(v, names.prefillTimeHistogram() + "_sum");
            double count = get(v, names.prefillTimeHistogram() + "_count");
            if (count > 0) {
                avgPrefillMs = sum / count * 1000;
            }
        }
        return new PodMetrics(get(v, names.waiting()), get(v, names.prefillPrealloc()), get(v, names.decodePrealloc()),
                kv, throughput, avgPrefillMs, kvCapacity, now);
    }

    private static double get(Map<String, Double> values, String name) {
        if (name == null) {
            return Double.NaN;
        }
        Double value = values.get(name);
        return value == null ? Double.NaN : value;
    }

    @Override
    public void close() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
        client.close();
    }
}
