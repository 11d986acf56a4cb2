package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.sim.FaultConfig;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Each pod's connection limit (PD_GATEWAY_UPSTREAM_MAX_CONNECTIONS_PER_POD, _MAX_WAITING_PER_POD, _WAIT_TIMEOUT),
 * against pods whose streams stay open after their first token: the request past the limit gets 503 in OpenAI format
 * with Retry-After and reaches no pod at all, a waiting request is served when a connection frees, a wait past its
 * timeout is refused, and /metrics shows the connections in use, the waiting and the refusals per pod.
 */
class PodConnectionLimitsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAT = "/v1/chat/completions";
    /** Closed after each test; also checks that every connection slot went back to its pod. */
    @AutoClose
    private TestCluster cluster;

    /** A vLLM prefill/decode pair whose decode holds each stream open after its first token. */
    private TestCluster heldPdPair(String maxConnections, String maxWaiting, String waitTimeout) throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_DECODE_STREAM_IDLE_TIMEOUT", "0",
                        "PD_GATEWAY_UPSTREAM_MAX_CONNECTIONS_PER_POD", maxConnections,
                        "PD_GATEWAY_UPSTREAM_MAX_WAITING_PER_POD", maxWaiting,
                        "PD_GATEWAY_UPSTREAM_WAIT_TIMEOUT", waitTimeout));
        cluster.simPod("decode-0").setFaults(FaultConfig.none().withHangAfterTokens(1));
        return cluster;
    }

    private RawStream heldStream(String prompt) throws Exception {
        RawStream stream = new RawStream(cluster.gateway().port(), CHAT, TestCluster.chat(prompt, 16, true));
        await().atMost(Duration.ofSeconds(5)).until(stream::contentEvents, n -> n >= 1);
        return stream;
    }

    /** The value of one pod's series on /metrics ({@code name{namespace="default",pod_name="pod"...}}), or -1. */
    private double metric(String name, String pod, String reason) throws Exception {
        String labels = "namespace=\"default\",pod_name=\"" + pod + "\"" + (reason == null ? "" : ",reason=\"" + reason
                + "\"");
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name + "{" + labels + "}") + " (\\S+)$")
                .matcher(cluster.get("/metrics").body());
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }

    @Test
    void decodeAtItsLimit_noWaiting_next503QueueFullWithRetryAfter_andItsPrefillNeverRuns() throws Exception {
        heldPdPair("2", "0", "5");
        try (RawStream first = heldStream("one"); RawStream second = heldStream("two")) {
            HttpResponse<String> refused = cluster.post(CHAT, TestCluster.chat("three", 16, true));

            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.headers().firstValue("Retry-After")).contains("5");
            assertThat(refused.headers().firstValue("Content-Type")).contains("application/json");
            JsonNode error = JSON.readTree(refused.body()).get("error");
            assertThat(error.get("code").asText()).isEqualTo("upstream_queue_full");
            assertThat(error.get("type").asText()).isEqualTo("overloaded_error");
            assertThat(error.get("message").asText()).contains("decode-0")
                    .contains("PD_GATEWAY_UPSTREAM_MAX_CONNECTIONS_PER_POD");
            // Refused before any leg: the decode slot is reserved first, so no prefill ran for it.
            assertThat(cluster.inferenceRequests("prefill-0")).hasSize(2);
            assertThat(cluster.inferenceRequests("decode-0")).hasSize(2);
            assertThat(cluster.gateway().routing().session().requests().outstanding()).as("its lease released")
                    .isEqualTo(2);
            assertThat(metric("pd_gateway_upstream_connections_in_use", "decode-0", null)).isEqualTo(2.0);
            assertThat(metric("pd_gateway_upstream_connections_in_use", "prefill-0", null)).isEqualTo(0.0);
            assertThat(metric("pd_gateway_upstream_requests_waiting", "decode-0", null)).isEqualTo(0.0);
            assertThat(metric("pd_gateway_upstream_rejected_requests_total", "decode-0", "queue_full")).isEqualTo(1.0);
            assertThat(metric("pd_gateway_upstream_rejected_requests_total", "decode-0", "wait_timeout")).isEqualTo(0.0);
            assertThat(cluster.get("/metrics").body()).contains("gateway_request_model_fail_total{model=\"my-model\","
                    + "pod_name=\"decode-0\",status=\"upstream_queue_full\",status_code=\"503\"} 1.0");
        }
    }

    @Test
    void decodeAtItsLimit_aWaitingRequestIsServedWhenAStreamEnds() throws Exception {
        heldPdPair("1", "4", "10");
        RawStream first = heldStream("first");
        try (RawStream waiting = new RawStream(cluster.gateway().port(), CHAT, TestCluster.chat("second", 16, true))) {
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> metric("pd_gateway_upstream_requests_waiting", "decode-0", null) == 1.0);
            assertThat(waiting.poll()).as("nothing sent while it waits").isEmpty();

            first.close(); // the client leaves: its decode connection closes and the slot passes on

            await().atMost(Duration.ofSeconds(5)).until(waiting::contentEvents, n -> n >= 1);
            assertThat(waiting.poll()).startsWith("HTTP/1.1 200");
            assertThat(metric("pd_gateway_upstream_requests_waiting", "decode-0", null)).isEqualTo(0.0);
            assertThat(metric("pd_gateway_upstream_connections_in_use", "decode-0", null)).isEqualTo(1.0);
            assertThat(metric("pd_gateway_upstream_rejected_requests_total", "decode-0", "wait_timeout")).isEqualTo(0.0);
        }
    }

    @Test
    void standardPodAtItsLimit_aWaitPastTheTimeout_503WaitTimeout() throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(Map.of("ROUTING_ALGORITHM", "random",
                "PD_GATEWAY_UPSTREAM_MAX_CONNECTIONS_PER_POD", "1", "PD_GATEWAY_UPSTREAM_MAX_WAITING_PER_POD", "1",
                "PD_GATEWAY_UPSTREAM_WAIT_TIMEOUT", "0.5"));
        cluster.simPod("standard-0").setFaults(FaultConfig.none().withHangAfterTokens(1));
        try (RawStream held = heldStream("held")) {
            long started = System.nanoTime();
            HttpResponse<String> refused = cluster.post(CHAT, TestCluster.chat("late", 16, true));

            assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofMillis(450),
                    Duration.ofMillis(3000));
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.headers().firstValue("Retry-After")).contains("1");
            JsonNode error = JSON.readTree(refused.body()).get("error");
            assertThat(error.get("code").asText()).isEqualTo("upstream_wait_timeout");
            assertThat(error.get("message").asText()).contains("within 0.5 s");
            assertThat(cluster.inferenceRequests("standard-0")).hasSize(1);
            assertThat(metric("pd_gateway_upstream_rejected_requests_total", "standard-0", "wait_timeout"))
                    .isEqualTo(1.0);
            assertThat(metric("pd_gateway_upstream_requests_waiting", "standard-0", null)).isEqualTo(0.0);
            assertThat(metric("pd_gateway_upstream_connections_in_use", "standard-0", null)).isEqualTo(1.0);
        }
    }
}
