package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.server.scrape.PrometheusText;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The gateway's /metrics carries what each pod's engine says its prefix cache served, beside what the gateway's view
 * predicted: a pod that computed one prompt three times reports cache hits on its own /metrics, and the gateway's
 * series for that pod read the same figures once it has scraped them (vLLM's two token counters; SGLang's and
 * TensorRT-LLM's hit-rate gauge). Of a PD pair only the prefill pod's, the pod whose prompts the view predicts.
 */
class EngineCacheHitsIT {
    private static final String PROMPT = "the same long question about prefix caches, asked again ".repeat(40);
    @AutoClose
    private TestCluster cluster;

    @Test
    void aVllmPodsHitAndQueryCounters_areOnTheGatewaysMetrics() throws Exception {
        cluster = threeTimesOnOnePod(new TestCluster());

        await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> {
            Map<String, Double> pod = podMetrics("/metrics", "vllm:prefix_cache_hits_total",
                    "vllm:prefix_cache_queries_total");
            Map<String, Double> gateway = gatewayMetrics("pd_prefix_cache_engine_hit_tokens_total",
                    "pd_prefix_cache_engine_queried_tokens_total");
            assertThat(pod.get("vllm:prefix_cache_hits_total")).as("the pod served cached tokens").isPositive();
            assertThat(gateway.get("pd_prefix_cache_engine_hit_tokens_total"))
                    .isEqualTo(pod.get("vllm:prefix_cache_hits_total"));
            assertThat(gateway.get("pd_prefix_cache_engine_queried_tokens_total"))
                    .isEqualTo(pod.get("vllm:prefix_cache_queries_total"));
        });
        assertThat(cluster.get("/metrics").body()).doesNotContain("pd_prefix_cache_engine_hit_rate");
    }

    @Test
    void aPdPair_onlyThePrefillPodsFigures_theOnesTheViewPredicts() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd"));
        for (int i = 0; i < 3; i++) {
            assertThat(cluster.post("/v1/chat/completions", TestCluster.chat(PROMPT, 2, false)).statusCode())
                    .isEqualTo(200);
        }
        cluster.awaitIdleScrapes("prefill-0", "decode-0");

        String metrics = cluster.get("/metrics").body();
        assertThat(metrics).containsPattern("pd_prefix_cache_engine_hit_tokens_total\\{[^}]*pod_name=\"prefill-0\"")
                .doesNotContainPattern("pd_prefix_cache_engine_[a-z_]+\\{[^}]*pod_name=\"decode-0\"");
    }

    @Test
    void anSglangPodsHitRate_isOnTheGatewaysMetrics() throws Exception {
        cluster = threeTimesOnOnePod(new TestCluster("sglang"));
        checkHitRate("/metrics", "sglang:cache_hit_rate");
    }

    @Test
    void aTensorRtLlmPodsHitRate_isOnTheGatewaysMetrics() throws Exception {
        cluster = threeTimesOnOnePod(new TestCluster("trtllm"));
        checkHitRate("/prometheus/metrics", "trtllm_kv_cache_hit_rate");
    }

    private void checkHitRate(String podPath, String podRate) throws Exception {
        await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> {
            double pod = podMetrics(podPath, podRate).get(podRate);
            assertThat(pod).as("the pod served cached tokens").isPositive();
            assertThat(gatewayMetrics("pd_prefix_cache_engine_hit_rate").get("pd_prefix_cache_engine_hit_rate"))
                    .isEqualTo(pod);
        });
        assertThat(cluster.get("/metrics").body()).doesNotContain("pd_prefix_cache_engine_hit_tokens_total");
    }

    private static TestCluster threeTimesOnOnePod(TestCluster cluster) throws Exception {
        cluster.standard("standard").startGateway(Map.of("ROUTING_ALGORITHM", "prefix-cache"));
        for (int i = 0; i < 3; i++) {
            assertThat(cluster.post("/v1/chat/completions", TestCluster.chat(PROMPT, 2, false)).statusCode())
                    .isEqualTo(200);
        }
        return cluster;
    }

    private Map<String, Double> podMetrics(String path, String... names) throws Exception {
        return PrometheusText.sums(cluster.podExposition("standard", path), Set.of(names));
    }

    private Map<String, Double> gatewayMetrics(String... names) throws Exception {
        String text = cluster.get("/metrics").body();
        assertThat(text).contains("pod_name=\"standard\"");
        return PrometheusText.sums(text, Set.of(names));
    }
}
