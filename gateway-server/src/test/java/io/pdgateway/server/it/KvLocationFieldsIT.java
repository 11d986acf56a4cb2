package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.sim.RecordedRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A client's KV-location fields never reach a pod (issue 17, finding 6): kv_transfer_params, disagg_prefill_resp,
 * bootstrap_host/port/room and disaggregated_params tell an engine with a KV connector where to fetch KV from, so a
 * standard pod handed them could be sent to any host. The gateway drops them on every path; the simulated pod records
 * what it received, and everything else in the body arrives byte for byte as sent.
 */
class KvLocationFieldsIT {
    private static final String CHAT = "/v1/chat/completions";
    /** Every KV-location field, each pointing at an address no discovery named. */
    private static final String KV_FIELDS = "\"kv_transfer_params\":{\"do_remote_prefill\":true,"
            + "\"remote_host\":\"10.9.9.9\",\"remote_port\":5555,\"remote_engine_id\":\"e\",\"remote_block_ids\":[1]},"
            + "\"disagg_prefill_resp\":{\"kv_transfer_params\":{\"remote_host\":\"10.9.9.9\"}},"
            + "\"bootstrap_host\":\"10.9.9.9\",\"bootstrap_port\":5555,\"bootstrap_room\":42,"
            + "\"disaggregated_params\":{\"request_type\":\"generation_only\",\"ctx_info_endpoint\":\"tcp://10.9.9.9:1\"}";
    @AutoClose
    private TestCluster cluster;

    private static String body(boolean stream) {
        return "{\"model\":\"my-model\", \"temperature\": 0.70,\"messages\":[{\"role\":\"user\",\"content\":\"kv\"}],"
                + KV_FIELDS + ",\"seed\":9007199254740993,\"max_tokens\":3,\"stream\":" + stream + "}";
    }

    /** What the body must look like at the pod: the same bytes, the KV-location members cut out. */
    private static String expected(boolean stream) {
        return "{\"model\":\"my-model\", \"temperature\": 0.70,\"messages\":[{\"role\":\"user\",\"content\":\"kv\"}],"
                + "\"seed\":9007199254740993,\"max_tokens\":3,\"stream\":" + stream + "}";
    }

    @ParameterizedTest(name = "routing-strategy: {0}")
    @ValueSource(strings = {"random", "least-request", "prefix-cache", "session-affinity"})
    void standardPod_neverReceivesTheClientsKvLocationFields(String strategy) throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(Map.of());

        HttpResponse<String> plain = cluster.post(CHAT, body(false), "routing-strategy", strategy);
        HttpResponse<String> streamed = cluster.post(CHAT, body(true), "routing-strategy", strategy);

        assertThat(plain.statusCode()).as(plain.body()).isEqualTo(200);
        assertThat(streamed.statusCode()).as(streamed.body()).isEqualTo(200);
        List<RecordedRequest> received = cluster.inferenceRequests("standard-0");
        assertThat(received).extracting(RecordedRequest::body).containsExactly(expected(false), expected(true));
    }

    @Test
    void pdStrategyFallingBackToAStandardPod_neverPassesThemOn() throws Exception {
        // A prefill without its decode: no complete pair, so pd falls back to the standard pod (with bucketing on).
        cluster = new TestCluster().standard("standard-0").prefill("prefill-0", "group-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_PROMPT_LENGTH_BUCKETING", "true"));

        HttpResponse<String> response = cluster.post(CHAT, body(false));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("target-pod")).contains("standard-0");
        assertThat(cluster.inferenceRequests("standard-0")).extracting(RecordedRequest::body)
                .containsExactly(expected(false));
    }

    @Test
    void pdPair_eachLegCarriesOnlyTheGatewaysOwnKvLocation() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd"));

        HttpResponse<String> response = cluster.post(CHAT, body(false));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        for (String pod : List.of("prefill-0", "decode-0")) {
            for (RecordedRequest leg : cluster.inferenceRequests(pod)) {
                // The client's port as a field value: a pod's own side-channel port may contain 5555 (35555 did).
                assertThat(leg.body()).as(pod).doesNotContain("10.9.9.9", ":5555,", ":5555}", "bootstrap_room",
                        "disaggregated_params", "disagg_prefill_resp");
            }
        }
    }
}
