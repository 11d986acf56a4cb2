package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.RecordedRequest;
import io.pdgateway.sim.SimPod;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * PD through an SGLang pair, end to end against simulated pods: the bootstrap triple and rid in both bodies with the
 * rest of the client's bytes untouched, both legs in flight at once, a failing prefill failing the request at once
 * (not hanging) and aborting the decode, a refused body before any pod is chosen, and a client who leaves aborting
 * both legs through /abort_request.
 */
class SglangIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAT = "/v1/chat/completions";
    @AutoClose
    private TestCluster cluster;

    private TestCluster pair(Map<String, String> env) throws Exception {
        return new TestCluster("sglang").prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startGateway(env);
    }

    static RecordedRequest only(SimPod pod, String path) {
        List<RecordedRequest> matching = pod.recordedRequests().stream().filter(r -> r.path().equals(path)).toList();
        assertThat(matching).as("requests to " + path).hasSize(1);
        return matching.get(0);
    }

    @Test
    void stream_bootstrapTripleInBothBodies_restOfTheBodyByteIdentical() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd"));
        String messages = "[{\"role\": \"user\", \"content\": \"caf\u00e9 \\\"quoted\\\" \u4e16\u754c\"}]";
        String client = "{\"model\": \"my-model\", \"messages\": " + messages + ", \"max_tokens\": 6, \"stream\": true,"
                + " \"stream_options\": {\"include_usage\": true}, \"temperature\": 0.70, \"seed\": 9007199254740993}";

        HttpResponse<String> response = cluster.post(CHAT, client, "x-request-id", "req-7");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("target-pod")).contains("decode-0");
        assertThat(response.headers().firstValue("prefill-target-pod")).contains("prefill-0");
        assertThat(response.body()).contains("\"usage\"").endsWith("data: [DONE]\n\n");
        SimPod prefill = cluster.simPod("prefill-0");
        String prefillBody = only(prefill, CHAT).body();
        String decodeBody = only(cluster.simPod("decode-0"), CHAT).body();
        JsonNode p = JSON.readTree(prefillBody);
        JsonNode d = JSON.readTree(decodeBody);
        for (JsonNode leg : new JsonNode[] {p, d}) {
            assertThat(leg.get("bootstrap_host").asText()).isEqualTo(prefill.host());
            assertThat(leg.get("bootstrap_port").asInt()).as("from the pod's annotation").isEqualTo(prefill.bootstrapPort());
            assertThat(leg.get("rid").asText()).startsWith("req-7-");
        }
        assertThat(p.get("bootstrap_room").asLong()).isEqualTo(d.get("bootstrap_room").asLong());
        assertThat(d.get("max_tokens").asInt()).isEqualTo(6);
        assertThat(d.get("stream_options")).isNotNull();
        assertThat(p.get("max_tokens").asInt()).isEqualTo(1);
        assertThat(p.get("stream").asBoolean()).isFalse();
        assertThat(p.has("stream_options")).isFalse();
        // Edited in place and appended at the end: every byte the gateway did not own arrives as the client sent it.
        String untouched = "{\"model\": \"my-model\", \"messages\": " + messages + ", \"max_tokens\": ";
        assertThat(decodeBody).startsWith(untouched + "6, \"stream\": true, \"stream_options\": {\"include_usage\": "
                + "true}, \"temperature\": 0.70, \"seed\": 9007199254740993,");
        assertThat(prefillBody).startsWith(untouched + "1, \"stream\": false, \"temperature\": 0.70, "
                + "\"seed\": 9007199254740993,");
        assertThat(prefill.kvTransfersServed()).as("the decode took the KV over the bootstrap server").isEqualTo(1);
    }

    @Test
    void concurrentLegs_decodeRunsWhileThePrefillHasNotAnswered() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_PREFILL_REQUEST_TIMEOUT", "1"));
        SimPod prefill = cluster.simPod("prefill-0");
        SimPod decode = cluster.simPod("decode-0");
        prefill.setFaults(FaultConfig.none().withHangBeforeHeaders());

        CompletableFuture<HttpResponse<String>> pending = CompletableFuture.supplyAsync(() -> send(
                TestCluster.chat("concurrent", 4, true)));

        // The prefill cannot answer (it hangs), yet the decode already has its request: the legs overlap.
        await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> {
            assertThat(decode.recordedRequests()).anyMatch(r -> r.path().equals(CHAT));
            assertThat(decode.openStreams()).isEqualTo(1);
            assertThat(prefill.openStreams()).isEqualTo(1);
        });
        // Upstream scenario #29: no prefill outcome is counted while the prefill call is still out.
        String during = cluster.get("/metrics").body();
        assertThat(during).contains("gateway_prefill_outstanding_requests 1.0")
                .doesNotContain("gateway_prefill_request_success_total{");
        HttpResponse<String> response = pending.get();
        assertThat(response.statusCode()).as("the prefill timed out").isEqualTo(504);
        assertThat(response.headers().firstValue("x-error-pd-prefill")).contains("true");
        String rid = JSON.readTree(only(decode, CHAT).body()).get("rid").asText();
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(JSON.readTree(only(decode, "/abort_request").body()).get("rid").asText()).isEqualTo(rid);
            assertThat(decode.requestsAborted()).isEqualTo(1);
        });
        assertThat(cluster.get("/metrics").body())
                .contains("gateway_prefill_request_fail_total{status=\"timeout\",status_code=\"504\"} 1.0")
                .doesNotContain("gateway_prefill_request_success_total{");
    }

    @Test
    void prefill500_failsWithinOneSecond_andAbortsTheWaitingDecode() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd"));
        SimPod decode = cluster.simPod("decode-0");
        cluster.simPod("prefill-0").setFaults(FaultConfig.none().withErrors(1.0, 500));
        long started = System.nanoTime();

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("doomed", 4, true));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.headers().firstValue("x-error-pd-prefill")).contains("true");
        assertThat(response.headers().firstValue("x-error-pd-decode")).isEmpty();
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(decode.requestsAborted()).as("the decode waited for a KV that never comes").isEqualTo(1);
            assertThat(decode.openStreams()).isZero();
        });
        assertThat(cluster.get("/metrics").body())
                .contains("gateway_prefill_request_fail_total{status=\"http_error\",status_code=\"500\"} 1.0");
    }

    @Test
    void duplicateControlledKey_400BeforeAnyPodIsChosen() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd"));

        HttpResponse<String> response = cluster.post(CHAT, "{\"model\":\"my-model\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"x\"}],\"stream\":true,\"stream\":false}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).path("error").path("message").asText()).contains("\"stream\"");
        assertThat(TestCluster.inference(cluster.simPod("prefill-0"))).isEmpty();
        assertThat(TestCluster.inference(cluster.simPod("decode-0"))).isEmpty();
        assertThat(cluster.gateway().routing().session().requests().outstanding()).isZero();
    }

    @Test
    void clientLeavesMidStream_abortRequestReachesTheDecode() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd"));
        SimPod decode = cluster.simPod("decode-0");
        decode.setFaults(FaultConfig.none().withHangAfterTokens(2));
        try (RawStream stream = new RawStream(cluster.gateway().port(), CHAT, TestCluster.chat("leave early", 40, true))) {
            await().atMost(Duration.ofSeconds(3)).until(stream::contentEvents, n -> n >= 2);
        }
        String rid = JSON.readTree(only(decode, CHAT).body()).get("rid").asText();
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(JSON.readTree(only(decode, "/abort_request").body()).get("rid").asText()).isEqualTo(rid);
            assertThat(decode.openStreams()).isZero();
        });
        assertThat(cluster.get("/metrics").body()).contains("status=\"client_cancel\",status_code=\"499\"} 1.0");
    }

    @Test
    void clientLeavesWhileThePrefillRuns_bothLegsAborted() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd"));
        SimPod prefill = cluster.simPod("prefill-0");
        SimPod decode = cluster.simPod("decode-0");
        prefill.setFaults(FaultConfig.none().withHangBeforeHeaders());
        try (RawStream stream = new RawStream(cluster.gateway().port(), CHAT, TestCluster.chat("walk away", 8, true))) {
            await().atMost(Duration.ofSeconds(2)).until(() -> decode.openStreams() == 1 && prefill.openStreams() == 1);
        }
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(decode.recordedRequests()).anyMatch(r -> r.path().equals("/abort_request"));
            assertThat(prefill.recordedRequests()).anyMatch(r -> r.path().equals("/abort_request"));
            assertThat(decode.openStreams()).isZero();
            assertThat(prefill.openStreams()).isZero();
        });
        assertThat(cluster.get("/metrics").body())
                .contains("gateway_prefill_request_fail_total{status=\"context_canceled\",status_code=\"499\"} 1.0");
    }

    private HttpResponse<String> send(String body) {
        try {
            return cluster.post(CHAT, body);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
