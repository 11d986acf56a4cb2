package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.RecordedRequest;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * PD through a vLLM pair, as a user sees it and as the pods see it: the exact prefill and decode bodies for both KV
 * connectors, the response headers, SSE relayed chunk by chunk while the decode is still generating, and a client
 * that walks away mid-stream closing the decode connection.
 */
class PdRoutingIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    @AutoClose
    private TestCluster cluster;

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    private static RecordedRequest only(SimPod pod, String path) {
        List<RecordedRequest> matching = pod.recordedRequests().stream().filter(r -> r.path().equals(path)).toList();
        assertThat(matching).as("requests to " + path).hasSize(1);
        return matching.get(0);
    }

    @Test
    void shfsStream_exactLegBodies_headers_andKvFetchedFromPrefill() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd"));
        String client = "{\"model\":\"my-model\",\"messages\":[{\"role\":\"user\",\"content\":\"hello world\"}],"
                + "\"max_tokens\":8,\"stream\":true,\"stream_options\":{\"include_usage\":true},\"min_tokens\":2,"
                + "\"temperature\":0.5}";
        HttpResponse<String> response = cluster.post("/v1/chat/completions", client, "x-request-id", "req-42");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("target-pod")).contains("decode-0");
        assertThat(response.headers().firstValue("prefill-target-pod")).contains("prefill-0");
        assertThat(response.headers().firstValue("routing-strategy")).contains("pd");
        assertThat(response.headers().firstValue("x-request-id")).contains("req-42");
        assertThat(response.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
        assertThat(response.body()).contains("\"usage\"").endsWith("data: [DONE]\n\n");

        SimPod prefill = cluster.simPod("prefill-0");
        SimPod decode = cluster.simPod("decode-0");
        RecordedRequest prefillLeg = only(prefill, "/v1/chat/completions");
        ObjectNode expectedPrefill = (ObjectNode) json(client);
        expectedPrefill.put("max_tokens", 1);
        expectedPrefill.put("stream", false);
        expectedPrefill.remove("stream_options");
        expectedPrefill.remove("min_tokens");
        expectedPrefill.put("max_completion_tokens", 1);
        expectedPrefill.set("kv_transfer_params", json("{\"do_remote_decode\":true,\"do_remote_prefill\":false,"
                + "\"remote_engine_id\":null,\"remote_block_ids\":null,\"remote_host\":null,\"remote_port\":null}"));
        assertThat(json(prefillLeg.body())).isEqualTo(expectedPrefill);
        assertThat(prefillLeg.headers().get("x-request-id")).isEqualTo("req-42");

        RecordedRequest decodeLeg = only(decode, "/v1/chat/completions");
        ObjectNode decodeBody = (ObjectNode) json(decodeLeg.body());
        JsonNode kv = decodeBody.remove("kv_transfer_params");
        assertThat(decodeBody).as("decode body = the client's body + kv_transfer_params").isEqualTo(json(client));
        assertThat(kv.get("do_remote_prefill").asBoolean()).isTrue();
        assertThat(kv.get("remote_host").asText()).isEqualTo(prefill.host());
        assertThat(kv.get("remote_port").asInt()).isEqualTo(prefill.port());
        assertThat(decodeLeg.headers().get("x-request-id")).isEqualTo("req-42");
        assertThat(prefill.recordedRequests()).as("the decode pod fetched the KV from the prefill pod")
                .anySatisfy(r -> assertThat(r.path()).startsWith("/sim/kv/"));
    }

    @Test
    void nixlLabel_decodeGetsWholePrefillResponse() throws Exception {
        cluster = new TestCluster()
                .pod("prefill-0", SimRole.PREFILL, "group-0", Map.of(SpecLabels.KV_CONNECTOR_TYPE, "nixl"), null)
                .decode("decode-0", "group-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd"));
        String client = TestCluster.chat("hello nixl", 4, false);
        HttpResponse<String> response = cluster.post("/v1/chat/completions", client);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response.body()).path("usage").path("completion_tokens").asInt()).isEqualTo(4);
        JsonNode prefillBody = json(only(cluster.simPod("prefill-0"), "/v1/chat/completions").body());
        assertThat(prefillBody.has("kv_transfer_params")).isFalse();
        ObjectNode decodeBody = (ObjectNode) json(only(cluster.simPod("decode-0"), "/v1/chat/completions").body());
        JsonNode disagg = decodeBody.remove("disagg_prefill_resp");
        assertThat(decodeBody).isEqualTo(json(client));
        assertThat(disagg.get("object").asText()).isEqualTo("chat.completion");
        assertThat(disagg.has("kv_transfer_params")).isTrue();
    }

    @Test
    void streamRelayedAsItArrives_thenClientLeaves_decodeConnectionClosed() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd"));
        SimPod decode = cluster.simPod("decode-0");
        // The decode pod sends three tokens and then stalls: a gateway that buffered would show the client nothing.
        decode.setFaults(FaultConfig.none().withHangAfterTokens(3));
        try (RawStream stream = new RawStream(cluster.gateway().port(), "/v1/chat/completions",
                TestCluster.chat("tell me a story", 50, true))) {
            await().atMost(10, TimeUnit.SECONDS).until(stream::contentEvents, n -> n >= 3);
            assertThat(stream.poll()).startsWith("HTTP/1.1 200").contains("target-pod: decode-0");
            assertThat(decode.openStreams()).isEqualTo(1);
        }
        // The client is gone: the gateway must close the decode leg, which stops the pod generating.
        await().atMost(5, TimeUnit.SECONDS).untilAsserted(() -> {
            assertThat(decode.openStreams()).isZero();
            assertThat(decode.streamsCancelled()).isEqualTo(1);
        });
        assertThat(cluster.get("/metrics").body())
                .contains("gateway_request_model_fail_total{model=\"my-model\",pod_name=\"decode-0\",status=\"client_cancel\",status_code=\"499\"} 1.0");
    }

    @Test
    void completionsNonStream_pdPair() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startGateway(Map.of());
        HttpResponse<String> response = cluster.post("/v1/completions",
                "{\"model\":\"my-model\",\"prompt\":\"once upon a time\",\"max_tokens\":5}", "routing-strategy", "pd");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response.body()).path("object").asText()).isEqualTo("text_completion");
        assertThat(response.headers().firstValue("prefill-target-pod")).contains("prefill-0");
        JsonNode prefillBody = json(only(cluster.simPod("prefill-0"), "/v1/completions").body());
        assertThat(prefillBody.get("prompt").asText()).isEqualTo("once upon a time");
        assertThat(prefillBody.get("max_tokens").asInt()).isEqualTo(1);
    }
}
