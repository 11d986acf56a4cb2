package io.pdgateway.server.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.session.Admission;
import io.pdgateway.core.session.PromptFeatures;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.server.discovery.PodSource;
import io.pdgateway.server.scrape.MetricsStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Spec, token_load charge lifecycle: "the request is charged to the selected prefill pod in the same critical
 * section as the selection itself, so concurrent selections see each other's charges". Four threads select at
 * once, nobody releases: with equal prompts the charges must come out exactly even across the prefill pods, which
 * only holds if no two selections read the ledger before the other's charge.
 */
class ConcurrentSelectionTest {
    private static final int PREFILLS = 4;
    private static final int THREADS = 4;
    private static final int PER_THREAD = 250;

    private static Pod pod(String name, PodRole role) {
        return new Pod("ns", name, "m", "10.0.0.1", 8000, 8000, "vllm", role, "rs", null, 8998, null, Map.of());
    }

    @Test
    void concurrentSelections_seeEachOthersCharges() throws Exception {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < PREFILLS; i++) {
            pods.add(pod("p" + i, PodRole.PREFILL));
        }
        pods.add(pod("d", PodRole.DECODE));
        ClusterSnapshot snapshot = ClusterSnapshot.of(pods);
        PodSource source = new PodSource() {
            @Override
            public ClusterSnapshot current() {
                return snapshot;
            }

            @Override
            public boolean ready() {
                return true;
            }

            @Override
            public void close() {
            }
        };
        RoutingService routing = new RoutingService(source, GatewaySettings.fromEnv(Map.of("ROUTING_ALGORITHM", "pd",
                "AIBRIX_PREFILL_SCORE_POLICY", "token_load", "AIBRIX_DECODE_SCORE_POLICY", "least_request")).routing(),
                new MetricsStore(Long.MAX_VALUE, () -> 0L), 1);
        Admission prep = routing.session().admit("m", null, null);
        PromptFeatures features = new PromptFeatures(100, null, 1000);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            done.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < PER_THREAD; i++) {
                    assertThat(routing.session().route(prep, features, "r", null).decision().isPd()).isTrue();
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();
        // 1000 charges of (3500 + 1000) tokens over 4 pods, each selection picking the least charged: exactly 250 each.
        for (int i = 0; i < PREFILLS; i++) {
            assertThat(routing.session().tokens().activeTokens("ns/p" + i)).as("p" + i).isEqualTo(250L * 4500);
        }
    }
}
