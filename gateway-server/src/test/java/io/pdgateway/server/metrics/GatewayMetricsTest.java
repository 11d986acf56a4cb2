package io.pdgateway.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Metric names on /metrics are the ones upstream dashboards query, _total suffix included exactly once. */
class GatewayMetricsTest {
    @Test
    void exposition_usesUpstreamNames() {
        GatewayMetrics metrics = new GatewayMetrics();
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
}
