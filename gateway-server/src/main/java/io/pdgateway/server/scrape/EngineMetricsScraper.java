package io.pdgateway.server.scrape;

import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.model.PodRole;
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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Scrapes every pod's Prometheus endpoint every AIBRIX_POD_METRIC_REFRESH_INTERVAL_MS and publishes the routing
 * signals to the {@link MetricsStore}. Asynchronous and bounded: at most one scrape per pod,
 * {@link #MAX_CONCURRENT_SCRAPES} overall and PD_GATEWAY_SCRAPE_MAX_PER_INTERVAL started per interval are in flight,
 * each with a timeout, so a slow or dead pod only makes its own metrics stale and never delays routing or the other
 * pods' scrapes. Pods are taken round-robin from where the last interval stopped, so with more pods than one
 * interval's budget every pod still gets its turn; each round over all pods then takes longer, and the stale limit
 * widens with it (three rounds). A pod whose scrapes fail is asked again after a pause that doubles up to
 * PD_GATEWAY_SCRAPE_MAX_BACKOFF_MS, so dead pods cost little. Each scrape's outcome goes to outlier detection.
 */
public final class EngineMetricsScraper implements AutoCloseable {
    /** Upstream runs 10 scrape workers; async scrapes are cheap, but a bound still protects pods and the gateway. */
    static final int MAX_CONCURRENT_SCRAPES = 32;
    /** A scrape slower than this is abandoned; the pod's metrics turn stale if it keeps failing. */
    static final long SCRAPE_TIMEOUT_MS = 1_000;
    /** Metrics older than this read as absent: two missed scrape timeouts (widened when rounds take longer). */
    public static final long STALE_AFTER_NANOS = 2 * SCRAPE_TIMEOUT_MS * 1_000_000L;
    /** A pod's metrics are kept this many of the scraper's rounds before they read as absent. */
    static final int STALE_AFTER_ROUNDS = 3;

    /** Reports what each scrape found. */
    public interface Outcome {
        void failed(Pod pod, String why);

        void answered(Pod pod);
    }

    private final Vertx vertx;
    private final EngineAdapters engines;
    private final PodSource pods;
    private final MetricsStore store;
    private final long intervalMs;
    private final int budgetPerInterval;
    private final long maxBackoffNanos;
    private final HttpClient client;
    private final Outcome outcome;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final Map<String, CounterRate> generationRates = new ConcurrentHashMap<>();
    private final EngineCacheHits cacheHits = new EngineCacheHits();
    /**
     * Each engine's wanted sample names, built once instead of on every scrape; keyed by the engine's name, whose hash
     * a String keeps (the names record hashed its eleven fields on every lookup, 1 % of a busy event loop).
     */
    private final Map<String, Set<String>> wanted = new ConcurrentHashMap<>();
    /** Pods whose last scrapes failed: how many in a row, and when to ask next. */
    private final Map<String, long[]> backoff = new ConcurrentHashMap<>();
    private ClusterSnapshot seen;
    private List<Pod> order = List.of();
    /**
     * The ids in {@link #order}: a scrape that ends after its pod left is dropped, or it would put the pod back into
     * the store, the cache-hit series and the backoff map, where only the next change of pods would take it out.
     */
    private volatile Set<String> scraping = Set.of();
    private int cursor;
    private long timer = -1;

    /**
     * @param budgetPerInterval scrapes started per interval at most
     * @param maxBackoffMillis the longest pause between two scrapes of a pod that keeps failing
     * @param outcome told of every scrape's outcome (outlier detection; the failure counter)
     */
    public EngineMetricsScraper(Vertx vertx, PodSource pods, EngineAdapters engines, MetricsStore store,
            long intervalMs, int budgetPerInterval, long maxBackoffMillis, Outcome outcome) {
        this.vertx = vertx;
        this.engines = engines;
        this.pods = pods;
        this.store = store;
        this.intervalMs = intervalMs;
        this.budgetPerInterval = budgetPerInterval;
        this.maxBackoffNanos = TimeUnit.MILLISECONDS.toNanos(maxBackoffMillis);
        this.outcome = outcome;
        this.client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout((int) SCRAPE_TIMEOUT_MS),
                new PoolOptions().setHttp1MaxSize(1));
    }

    /** What each pod's engine says its prefix cache served, as the scrapes found it. */
    public EngineCacheHits cacheHits() {
        return cacheHits;
    }

    public void start() {
        timer = vertx.setPeriodic(intervalMs, id -> scrapeAll());
    }

    private void scrapeAll() {
        ClusterSnapshot snapshot = pods.current();
        if (snapshot != seen) {
            seen = snapshot;
            List<Pod> all = new ArrayList<>();
            Set<String> present = new HashSet<>();
            for (ModelPods model : snapshot.models()) {
                for (Pod pod : model.pods()) {
                    if (present.add(pod.id())) {
                        all.add(pod);
                    }
                }
            }
            order = all;
            scraping = present;
            cursor = 0;
            store.retainOnly(present);
            generationRates.keySet().retainAll(present);
            cacheHits.retainOnly(present);
            backoff.keySet().retainAll(present);
            long rounds = Math.max(1, (all.size() + budgetPerInterval - 1) / budgetPerInterval);
            store.staleAfter(Math.max(STALE_AFTER_NANOS,
                    STALE_AFTER_ROUNDS * rounds * TimeUnit.MILLISECONDS.toNanos(intervalMs)));
        }
        int n = order.size();
        long now = System.nanoTime();
        int started = 0;
        int looked = 0;
        while (looked < n && started < budgetPerInterval && inFlight.size() < MAX_CONCURRENT_SCRAPES) {
            Pod pod = order.get((cursor + looked) % n);
            looked++;
            long[] failing = backoff.get(pod.id());
            if (failing != null && now - failing[1] < 0) {
                continue; // resting after failures
            }
            if (inFlight.add(pod.id())) {
                started++;
                scrape(pod);
            }
        }
        cursor = n == 0 ? 0 : (cursor + looked) % n;
    }

    private void failedScrape(Pod pod, String why) {
        long now = System.nanoTime();
        backoff.compute(pod.id(), (id, f) -> {
            long inARow = f == null ? 1 : f[0] + 1;
            long pause = Math.min(maxBackoffNanos,
                    TimeUnit.MILLISECONDS.toNanos(intervalMs) << Math.min(20, inARow));
            return new long[] {inARow, now + pause};
        });
        outcome.failed(pod, why);
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
                    if (!scraping.contains(pod.id())) {
                        return; // the pod left while it was being scraped
                    }
                    if (ar.succeeded()) {
                        backoff.remove(pod.id());
                        outcome.answered(pod);
                        long now = System.nanoTime();
                        String text = ar.result().toString(StandardCharsets.UTF_8);
                        Map<String, Double> values = PrometheusText.sums(text,
                                wanted.computeIfAbsent(pod.engine(), engine -> names.wanted()));
                        store.put(pod.id(), toMetrics(pod, names, values, kvCapacityTokens(names, text, values), now));
                        if (pod.role() != PodRole.DECODE) { // what the cache view predicts: the computing pods'
                            cacheHits.observe(pod.id(), get(values, names.prefixHitTokens()),
                                    get(values, names.prefixQueriedTokens()), get(values, names.prefixHitRate()));
                        }
                    } else {
                        failedScrape(pod, "scrape: " + ar.cause().getMessage());
                    }
                });
    }

    /** The engine's KV cache size in tokens, or NaN when it reports none. */
    static double kvCapacityTokens(EngineMetricNames names, String text, Map<String, Double> values) {
        if (names.cacheConfigInfo() != null) {
            Map<String, String> config = PrometheusText.labels(text, names.cacheConfigInfo());
            double blocks = positiveNumber(config.get("num_gpu_blocks"));
            double blockSize = positiveNumber(config.get("block_size"));
            if (blocks > 0 && blockSize > 0) {
                return blocks * blockSize;
            }
        }
        Double gauge = names.kvCapacityGauge() == null ? null : values.get(names.kvCapacityGauge());
        return gauge != null && gauge > 0 ? gauge : Double.NaN;
    }

    /**
     * A label's value as a positive number, else NaN: absent, "None" (vLLM before its KV cache is sized) or not a
     * number. Checked before parsing rather than caught: an engine that never reports it made every scrape throw.
     */
    static double positiveNumber(String label) {
        if (label == null || label.isEmpty() || label.length() > 20 || !asciiDigit(label.charAt(0))) {
            return Double.NaN;
        }
        for (int i = 1; i < label.length(); i++) {
            char c = label.charAt(i);
            if (!asciiDigit(c) && c != '.') {
                return Double.NaN;
            }
        }
        try {
            double value = Double.parseDouble(label);
            return value > 0 ? value : Double.NaN;
        } catch (NumberFormatException e) {
            return Double.NaN; // more than one '.'
        }
    }

    private static boolean asciiDigit(char c) {
        return c >= '0' && c <= '9';
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
