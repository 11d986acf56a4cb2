package io.pdgateway.server.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.engine.EngineAdapters;
import io.pdgateway.server.discovery.PodSource;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The scraper over a real socket to an engine whose {@code /metrics} answers when the test says: what a scrape
 * brings back is kept for a pod that is still there, and dropped for one that left while it was being scraped.
 */
class EngineMetricsScraperTest {
    private static final String VLLM_METRICS = "vllm:num_requests_waiting{model_name=\"m\"} 3.0\n"
            + "vllm:prefix_cache_queries_total{model_name=\"m\"} 1000.0\n"
            + "vllm:prefix_cache_hits_total{model_name=\"m\"} 250.0\n";

    private final AtomicReference<ClusterSnapshot> pods = new AtomicReference<>(ClusterSnapshot.EMPTY);
    private final AtomicInteger podReads = new AtomicInteger();
    private final BlockingQueue<HttpServerRequest> held = new LinkedBlockingQueue<>();
    private final MetricsStore store = new MetricsStore(EngineMetricsScraper.STALE_AFTER_NANOS, System::nanoTime);
    private Vertx vertx;
    private HttpServer engine;
    private EngineMetricsScraper scraper;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        engine = vertx.createHttpServer().requestHandler(held::add).listen(0, "127.0.0.1").await();
        PodSource source = new PodSource() {
            @Override
            public ClusterSnapshot current() {
                podReads.incrementAndGet();
                return pods.get();
            }

            @Override
            public boolean ready() {
                return true;
            }

            @Override
            public void close() {
            }
        };
        EngineAdapters engines = EngineAdapters.create(GatewaySettings.defaults().engines(), new SplittableRandom(1),
                InstantSource.system());
        scraper = new EngineMetricsScraper(vertx, source, engines, store, 10, 16, 1_000,
                new EngineMetricsScraper.Outcome() {
                    @Override
                    public void failed(Pod pod, String why) {
                    }

                    @Override
                    public void answered(Pod pod) {
                    }
                });
    }

    @AfterEach
    void stop() {
        scraper.close();
        vertx.close().await();
    }

    @Test
    void aPodStillThere_keepsWhatItsScrapeBrought() throws Exception {
        Pod pod = pod();
        pods.set(ClusterSnapshot.of(List.of(pod)));
        scraper.start();

        answer(nextScrape());

        await().atMost(Duration.ofSeconds(10)).until(() -> store.entry(pod.id()) != null);
        assertThat(store.entry(pod.id()).latest().waiting()).isEqualTo(3.0);
        assertThat(scraper.cacheHits().hitTokens(pod.id())).isEqualTo(250.0);
    }

    @Test
    void aPodThatLeftWhileBeingScraped_isNotPutBack() throws Exception {
        Pod pod = pod();
        pods.set(ClusterSnapshot.of(List.of(pod)));
        scraper.start();
        HttpServerRequest scrape = nextScrape(); // in flight, held by the engine

        pods.set(ClusterSnapshot.EMPTY); // the pod leaves
        int readsAtDeparture = podReads.get();
        await().atMost(Duration.ofSeconds(10)).until(() -> podReads.get() >= readsAtDeparture + 2); // seen
        answer(scrape);

        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(
                () -> store.entry(pod.id()) == null && !scraper.cacheHits().counting(pod.id()));
    }

    private HttpServerRequest nextScrape() throws InterruptedException {
        HttpServerRequest scrape = held.poll(10, TimeUnit.SECONDS);
        assertThat(scrape).as("a scrape reached the engine").isNotNull();
        assertThat(scrape.path()).isEqualTo("/metrics");
        return scrape;
    }

    private void answer(HttpServerRequest scrape) {
        vertx.runOnContext(v -> scrape.response().putHeader("content-type", "text/plain").end(VLLM_METRICS));
    }

    private Pod pod() {
        return new Pod("default", "engine-0", "m", "127.0.0.1", engine.actualPort(), engine.actualPort(), "vllm",
                PodRole.OTHER, null, null, 0, null, Map.of());
    }
}
