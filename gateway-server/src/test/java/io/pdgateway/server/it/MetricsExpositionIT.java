package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.server.metrics.DashboardCheck;
import io.pdgateway.server.metrics.ExpositionLint;
import io.pdgateway.server.metrics.Promtool;
import io.pdgateway.sim.FaultConfig;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * /metrics of a gateway that served every kind of request (a PD pair, a standard pod by strategy, a standard pod as
 * the fallback of a retried prefill, an unknown model, a prefill that failed for good, a refused body) while one listed
 * pod is dead and is scraped in vain: the exposition lint and, where installed, {@code promtool check metrics} find
 * nothing; the JVM and process metrics are there; and every query of the Grafana dashboard in deploy/grafana names
 * metrics and labels this /metrics has (and, where promtool is installed, parses as PromQL).
 */
class MetricsExpositionIT {
    private static final String CHAT = "/v1/chat/completions";
    static final Path DASHBOARD = Path.of("..", "deploy", "grafana", "pd-gateway.json");
    @AutoClose
    private TestCluster cluster;

    @Test
    void everyKindOfRequestServed_metricsPassTheLint_andTheDashboardFindsItsSeries(@TempDir Path dir)
            throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .standard("standard-0").prefill("dead-0", "group-9")
                // An SGLang pod of a model of its own: its engine's hit rate is on /metrics for the dashboard's panel.
                .standardOfItsOwnModel("sglang-0", "sglang", "sglang-model");
        cluster.stopPod("dead-0"); // listed, never routable (its roleset has no decode), scraped in vain
        cluster.startGateway(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_PROMPT_LENGTH_BUCKETING", "true",
                "AIBRIX_PREFILL_SCORE_POLICY", "token_load", "AIBRIX_DECODE_SCORE_POLICY", "token_load"));

        assertThat(status(cluster.post(CHAT, TestCluster.chat("pd pair", 6, true)))).isEqualTo(200);
        assertThat(status(cluster.post(CHAT, TestCluster.chat("standard", 6, true), "routing-strategy", "random")))
                .isEqualTo(200);
        assertThat(status(cluster.post(CHAT, TestCluster.chat("nobody", 2, false).replace("my-model", "no-such"))))
                .isEqualTo(404);
        assertThat(status(cluster.post(CHAT, "{\"model\":"))).isEqualTo(400);
        // Idle in the gateway's view first: a PD pair that still looks busy would send the next request straight to the
        // idle standard pod (spec step 0, shouldPickCombined) and there would be no prefill to retry.
        cluster.awaitIdleScrapes("prefill-0", "decode-0", "standard-0");
        cluster.simPod("prefill-0").setFaults(FaultConfig.none().withErrors(1.0, 502));
        assertThat(status(cluster.post(CHAT, TestCluster.chat("retried", 6, true)))).as("retried on the standard pod")
                .isEqualTo(200);
        cluster.simPod("prefill-0").setFaults(FaultConfig.none().withErrors(1.0, 422));
        assertThat(status(cluster.post(CHAT, TestCluster.chat("refused", 2, false)))).isEqualTo(422);
        cluster.simPod("prefill-0").setFaults(FaultConfig.none());
        System.gc(); // so that jvm_gc_pause_seconds has a series, as it has in any gateway that ran for a while

        // The token-load gauges follow the ledger on the upkeep tick, scrape failures on the scrape interval.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(DashboardCheck.problems(DASHBOARD, ExpositionLint.check(metrics()))).isEmpty());

        String text = metrics();
        ExpositionLint lint = ExpositionLint.check(text);
        assertThat(lint.problems()).isEmpty();
        assertThat(lint.families()).containsKeys("jvm_memory_used_bytes", "process_cpu_seconds_total",
                "gateway_request_model_success_total", "gateway_request_model_fail_total", "gateway_request_total",
                "pd_selected_prefill_pod_total", "pd_gateway_prefill_retries_total", "pd_tpot_seconds");
        assertThat(text).contains("gateway_request_model_fail_total{model=\"unknown\",pod_name=\"\","
                        + "status=\"model_not_found\",status_code=\"404\"} 1.0")
                .contains("pd_gateway_routed_requests_total{fallback=\"true\",model=\"my-model\",route=\"standard\"} 1.0")
                .contains("pd_gateway_scrape_failures_total{namespace=\"default\",pod=\"dead-0\"}")
                .contains("pd_tpot_seconds_count{model=\"my-model\",route=\"standard\"} 2");
        Path promtool = Promtool.locate();
        if (promtool != null) {
            assertThat(Promtool.run(promtool, text, "check", "metrics")).as("promtool check metrics").isEmpty();
            assertThat(DashboardCheck.promtoolCheckRules(promtool, DASHBOARD, dir)).as("promtool check rules")
                    .isEmpty();
        }
    }

    private static int status(HttpResponse<String> response) {
        return response.statusCode();
    }

    private String metrics() throws Exception {
        return cluster.get("/metrics").body();
    }
}
