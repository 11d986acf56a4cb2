package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimPod;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The cascade against live pods: engine metrics scraped from the simulators steer the decode choice, prefix-sharing
 * prompts stick to the pod that served the prefix until its load outweighs the match, and x-pd-decision explains.
 */
class CascadeIT {
    @AutoClose
    private TestCluster cluster;
    private final List<RawStream> held = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (RawStream stream : held) {
            stream.close();
        }
    }

    private String target(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.headers().firstValue("target-pod").orElseThrow();
    }

    @Test
    void decodePodLoadedBehindTheGatewaysBack_scrapedKvMovesRequestsToPeer() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "rs-0").decode("decode-0", "rs-0")
                .prefill("prefill-1", "rs-1").decode("decode-1", "rs-1")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_PREFILL_SCORE_POLICY", "least_request",
                        "AIBRIX_POD_METRIC_REFRESH_INTERVAL_MS", "50"));
        SimPod decode0 = cluster.simPod("decode-0");
        // Another client loads decode-0 directly: four long generations (non-streaming, so they run for seconds
        // without output) that reserve ~400k of its 434k KV tokens. Only the scraped vllm:kv_cache_usage_perc can
        // tell the gateway about them.
        for (int i = 0; i < 4; i++) {
            held.add(new RawStream(decode0.host(), decode0.port(), "/v1/chat/completions",
                    TestCluster.chat("hog " + i, 100_000, false)));
        }
        await().atMost(5, TimeUnit.SECONDS).until(() -> decode0.openStreams() == 4);
        // load_balancing: decode-0 ≈ (0 + 1) / (8 % free / 100 %) ≈ 12 against decode-1's 1 → every request moves,
        // as soon as one scrape (50 ms) has seen the KV.
        await().atMost(1, TimeUnit.SECONDS).untilAsserted(() -> {
            for (int i = 0; i < 5; i++) {
                assertThat(target(cluster.post("/v1/chat/completions", TestCluster.chat("quick " + i, 2, false))))
                        .isEqualTo("decode-1");
            }
        });
        for (RawStream stream : held) {
            stream.close();
        }
        held.clear();
    }

    @Test
    void sharedPrefix_sticksToItsPrefillPod_untilLoadOutweighsIt() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "rs-0").decode("decode-0", "rs-0")
                .prefill("prefill-1", "rs-1").decode("decode-1", "rs-1")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd"));
        String system = "You are a meticulous assistant for the river city water authority. ".repeat(20);
        HttpResponse<String> first = cluster.post("/v1/chat/completions",
                TestCluster.chat(system + "Question one?", 2, false), "x-pd-debug", "true");
        String holder = first.headers().firstValue("prefill-target-pod").orElseThrow();
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> next = cluster.post("/v1/chat/completions",
                    TestCluster.chat(system + "Question " + i + " about pipes?", 2, false), "x-pd-debug", "true");
            assertThat(next.headers().firstValue("prefill-target-pod")).as(next.headers().firstValue("x-pd-decision")
                    .orElse("")).contains(holder);
            assertThat(next.headers().firstValue("x-pd-decision").orElseThrow()).startsWith("step=final-score")
                    .contains("rs-0:").contains("rs-1:").contains(holder + ":");
        }
        // Load the holder: its prefill hangs, so in-flight prefills pile up on it past the imbalance spread (16).
        SimPod holderPod = cluster.simPod(holder);
        holderPod.setFaults(FaultConfig.none().withHangBeforeHeaders());
        for (int i = 0; i < 17; i++) {
            held.add(new RawStream(cluster.gateway().port(), "/v1/chat/completions",
                    TestCluster.chat(system + "Stuck question " + i, 2, false)));
        }
        await().atMost(5, TimeUnit.SECONDS).until(() -> holderPod.openStreams() >= 17);
        HttpResponse<String> moved = cluster.post("/v1/chat/completions",
                TestCluster.chat(system + "One more question?", 2, false), "x-pd-debug", "true");
        assertThat(moved.headers().firstValue("prefill-target-pod")).isNotEqualTo(java.util.Optional.of(holder));
        assertThat(moved.headers().firstValue("x-pd-decision").orElseThrow()).startsWith("step=prefill-imbalance");
        for (RawStream stream : held) {
            stream.close();
        }
    }
}
