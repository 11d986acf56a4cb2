package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.pdgateway.sim.cluster.PodManifest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Outlier detection over real sockets: pods that refuse connections fail their scrapes, leave the candidate set (the
 * ejected-pods gauge and the ejections counter say so) and stop getting traffic; a pod that answers again returns.
 */
class OutlierEjectionIT {
    private static final String CHAT = "/v1/chat/completions";
    private static final Pattern EJECTED = Pattern.compile("(?m)^pd_gateway_outlier_ejected_pods (\\S+)$");
    @AutoClose
    private TestCluster cluster;
    private SimPod revived;

    @AfterEach
    void tearDown() {
        if (revived != null) {
            revived.close().await(); // on the cluster's Vert.x: before it closes
        }
    }

    /** A pod-file entry at an address where nothing listens: every connection to it is refused. */
    private static PodManifest.Entry dead(String name, String roleset, String role, int i) {
        Map<String, String> labels = new HashMap<>();
        labels.put(SpecLabels.MODEL_NAME, TestCluster.MODEL);
        labels.put(SpecLabels.PORT, "1");
        labels.put(SpecLabels.ENGINE, "vllm");
        labels.put(SpecLabels.ROLE_NAME, role);
        labels.put(SpecLabels.ROLESET_NAME, roleset);
        return new PodManifest.Entry("default", name, labels, Map.of(), "127.0.201." + (2 + i), true);
    }

    private double ejectedGauge() throws Exception {
        Matcher m = EJECTED.matcher(cluster.get("/metrics").body());
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }

    @Test
    void oneLivePairAmongNine_deadPodsSeenToFail_atLeast99PercentSucceed() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0");
        for (int g = 1; g <= 8; g++) {
            cluster.replaceEntry("prefill-" + g, dead("prefill-" + g, "group-" + g, "prefill", 2 * g));
            cluster.replaceEntry("decode-" + g, dead("decode-" + g, "group-" + g, "decode", 2 * g + 1));
        }
        // No prefill retry: every request sent to a dead pod would be a failure the client sees.
        cluster.startGateway(Map.of("ROUTING_ALGORITHM", "pd", "PD_GATEWAY_PREFILL_RETRY", "false"));

        // Seen to fail: every dead pod failed its scrapes three times in a row.
        await().atMost(Duration.ofSeconds(10)).until(this::ejectedGauge, n -> n == 16);
        // Under load (eight clients at once) the live pair's scraped load rises, which is when dead pods, scored
        // without metrics, would look the better choice.
        java.util.List<java.util.concurrent.CompletableFuture<Integer>> clients = new java.util.ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            for (int c = 0; c < 8; c++) {
                int client = c;
                clients.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                    int served = 0;
                    for (int i = 0; i < 25; i++) {
                        try {
                            if (cluster.post(CHAT, TestCluster.chat("client " + client + " request " + i, 32, false))
                                    .statusCode() == 200) {
                                served++;
                            }
                        } catch (Exception e) {
                            // counted as not served
                        }
                    }
                    return served;
                }, pool));
            }
        } finally {
            pool.shutdown();
        }
        int ok = 0;
        for (java.util.concurrent.CompletableFuture<Integer> client : clients) {
            ok += client.get(60, java.util.concurrent.TimeUnit.SECONDS);
        }
        assertThat(ok).as("requests served of 200").isGreaterThanOrEqualTo(198);
        assertThat(cluster.inferenceRequests("prefill-0")).hasSize(200);
        assertThat(cluster.get("/metrics").body()).contains("pd_gateway_outlier_ejections_total 16.0");
    }

    @Test
    void podStopsAnsweringThenComesBack_leavesRoutingThenReturns() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .prefill("prefill-1", "group-1").decode("decode-1", "group-1")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd"));
        SimPod decode1 = cluster.simPod("decode-1");
        String host = decode1.host();
        int port = decode1.port();
        cluster.stopPod("decode-1");

        await().atMost(Duration.ofSeconds(10)).until(this::ejectedGauge, n -> n == 1);
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("while one is down " + i, 4, false),
                    "x-pd-debug", "true");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("target-pod")).contains("decode-0");
            assertThat(response.headers().firstValue("x-pd-decision").orElse("")).doesNotContain("decode-1");
        }

        revived = SimPod.start(cluster.vertx, SimConfig.builder().role(SimRole.DECODE).host(host).port(port)
                .modelName(TestCluster.MODEL).timeScale(TestCluster.TIME_SCALE).build()).await();
        // Its next scrape answers (within the 5 s backoff ceiling): back in routing.
        await().atMost(Duration.ofSeconds(10)).until(this::ejectedGauge, n -> n == 0);
        // A candidate again: the decision's scores name it (while ejected they did not).
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.post(CHAT, TestCluster.chat("back?", 4, false),
                "x-pd-debug", "true").headers().firstValue("x-pd-decision").orElse("").contains("decode-1"));
    }
}
