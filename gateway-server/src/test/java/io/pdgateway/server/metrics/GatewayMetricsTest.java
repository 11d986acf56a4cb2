package io.pdgateway.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.Strategy;
import io.pdgateway.core.routing.Verdict;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The gateway's registry on its own: upstream's metric names with the _total suffix exactly once, HELP on every
 * metric (the exposition lint and, where installed, promtool find nothing), the JVM's and the process's metrics, and
 * a model that no discovered pod serves counted as {@code unknown} on every metric that carries a model.
 */
class GatewayMetricsTest {
    private final GatewayMetrics metrics = new GatewayMetrics();

    @AfterEach
    void close() {
        metrics.close();
    }

    @Test
    void servedModel_keepsUpstreamNamesAndLabels() {
        metrics.servedModels("m"::equals);
        metrics.requestStarted("m");
        metrics.failure("m", "pd_prefill_fail", 502, "d");
        metrics.prefillStarted();
        metrics.prefillFailed("timeout", 504);
        String text = metrics.scrape();
        assertThat(text).contains("gateway_request_total{model=\"m\"} 1.0")
                .contains("gateway_request_model_fail_total{model=\"m\",pod_name=\"d\",status=\"pd_prefill_fail\",status_code=\"502\"} 1.0")
                .contains("gateway_prefill_request_fail_total{status=\"timeout\",status_code=\"504\"} 1.0")
                .contains("gateway_in_flight_requests 1.0")
                .doesNotContain("_total_total");
    }

    @Test
    void modelNoPodServes_countedAsUnknownEverywhere() {
        metrics.servedModels("m"::equals);
        String clientChosen = "attacker-chosen-" + "x".repeat(200);
        metrics.requestStarted(clientChosen);
        metrics.failure(clientChosen, "model_not_found", 404, null);
        metrics.routingTime(clientChosen, 1_000);
        metrics.prefillRetried(clientChosen, "http_error", 502, true);
        metrics.success(clientChosen, "d");
        metrics.phases(clientChosen, GatewayMetrics.ROUTE_PD).ttft(1_000);

        String text = metrics.scrape();
        assertThat(text).doesNotContain("attacker-chosen")
                .contains("gateway_request_total{model=\"unknown\"} 1.0")
                .contains("gateway_request_model_fail_total{model=\"unknown\",pod_name=\"\",status=\"model_not_found\","
                        + "status_code=\"404\"} 1.0")
                .contains("pd_routing_duration_seconds_count{model=\"unknown\"} 1")
                .contains("pd_ttft_seconds_count{model=\"unknown\",route=\"pd\"} 1");
    }

    @Test
    void beforeDiscoveryIsWired_everyModelIsUnknown() {
        assertThat(metrics.modelLabel("m")).isEqualTo(GatewayMetrics.UNKNOWN_MODEL);
        assertThat(metrics.modelLabel(null)).isEqualTo(GatewayMetrics.UNKNOWN_MODEL);
    }

    @Test
    void routedDecisions_countedByRouteAndFallback() {
        metrics.servedModels("m"::equals);
        Pod prefill = pod("p", PodRole.PREFILL);
        Pod decode = pod("d", PodRole.DECODE);
        Pod standard = pod("s", PodRole.OTHER);
        metrics.routed("m", RouteDecision.pair(prefill, decode, "final-score", "r", java.util.Map.of()));
        metrics.routed("m", RouteDecision.single(standard, Verdict.STANDARD_FALLBACK, Strategy.PD, "fallback", "r"));
        metrics.routed("m", RouteDecision.single(standard, Verdict.SINGLE_POD_SELECTED, Strategy.RANDOM, "pick", "r"));

        assertThat(metrics.scrape())
                .contains("pd_gateway_routed_requests_total{fallback=\"false\",model=\"m\",route=\"pd\"} 1.0")
                .contains("pd_gateway_routed_requests_total{fallback=\"true\",model=\"m\",route=\"standard\"} 1.0")
                .contains("pd_gateway_routed_requests_total{fallback=\"false\",model=\"m\",route=\"standard\"} 1.0");
    }

    private static Pod pod(String name, PodRole role) {
        return new Pod("default", name, "m", "127.0.0.1", 8000, 8000, "vllm", role,
                role == PodRole.OTHER ? null : "g", null, 0, null, java.util.Map.of());
    }

    @Test
    void freshRegistry_hasJvmAndProcessMetrics_andPassesTheLint() throws Exception {
        metrics.servedModels("m"::equals);
        metrics.requestStarted("m");
        metrics.rejected("invalid_body");
        String text = metrics.scrape();

        ExpositionLint lint = ExpositionLint.check(text);
        assertThat(lint.problems()).isEmpty();
        assertThat(lint.families()).containsKeys("jvm_memory_used_bytes",
                "jvm_threads_live_threads", "process_cpu_seconds_total", "process_start_time_seconds",
                "process_open_fds", "process_resident_memory_bytes", "gateway_request_total");
        Path promtool = Promtool.locate();
        if (promtool != null) {
            assertThat(Promtool.run(promtool, text, "check", "metrics")).isEmpty();
        }
    }
}
