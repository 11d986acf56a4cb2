package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** The non-inference endpoints: models, health, readiness, metrics. */
class FrontIT {
    @AutoClose
    private TestCluster cluster;

    @Test
    void modelsHealthReadyMetrics() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "g").decode("decode-0", "g").startGateway(Map.of());
        assertThat(cluster.get("/v1/models").body()).contains("\"id\":\"my-model\"").contains("\"object\":\"list\"");
        assertThat(cluster.get("/healthz").statusCode()).isEqualTo(200);
        assertThat(cluster.get("/readyz").statusCode()).isEqualTo(200);
        cluster.post("/v1/chat/completions", TestCluster.chat("x", 1, false), "routing-strategy", "pd");
        String metrics = cluster.get("/metrics").body();
        assertThat(metrics).contains("gateway_request_total{model=\"my-model\"} 1.0")
                .contains("pd_selected_decode_pod_total{namespace=\"default\",pod=\"decode-0\",roleset=\"g\"} 1.0")
                .contains("gateway_prefill_request_success_total")
                .contains("pd_ttft_seconds_count{model=\"my-model\",route=\"pd\"} 1")
                .contains("pd_prefill_duration_seconds_count{model=\"my-model\",route=\"pd\"} 1")
                .contains("pd_kv_transfer_estimate_seconds_count{model=\"my-model\",route=\"pd\"} 1")
                .contains("pd_decode_duration_seconds_count{model=\"my-model\",route=\"pd\"} 1")
                .contains("pd_routing_duration_seconds_count{model=\"my-model\"} 1");
        cluster.gateway().drain();
        assertThat(cluster.get("/readyz").statusCode()).isEqualTo(503);
        assertThat(cluster.get("/v1/nothing").statusCode()).isEqualTo(404);
    }
}
