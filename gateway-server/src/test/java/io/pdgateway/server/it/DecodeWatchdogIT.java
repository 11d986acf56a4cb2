package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimPod;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The decode watchdog (spec, "SGLang Decode Watchdog"), against decode pods that stop answering: 504 with
 * x-error-pd-decode while nothing reached the client, a 200 cut short with a stream error after; each timer
 * (first response, idle stream, whole response) firing on time, from the environment or a profile; the abort reaching
 * the decode pod; the pd_decode_watchdog counter. It guards vLLM decodes as well. No test waits longer than its
 * configured timeout plus one second.
 */
class DecodeWatchdogIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAT = "/v1/chat/completions";
    private static final String WATCHDOG_COUNTER =
            "status=\"pd_decode_watchdog\",status_code=\"504\"} 1.0";
    @AutoClose
    private TestCluster cluster;

    private TestCluster pair(String engine, Map<String, String> env) throws Exception {
        return new TestCluster(engine).prefill("prefill-0", "group-0").decode("decode-0", "group-0").startGateway(env);
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    @Test
    void sglangFirstResponse_headersButNoToken_504WithDecodeHeader_andAbortReachesThePod() throws Exception {
        cluster = pair("sglang", Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_DECODE_FIRST_RESPONSE_TIMEOUT", "0.5"));
        SimPod decode = cluster.simPod("decode-0");
        // SGLang sends the stream's headers at once; then this decode never produces a token.
        decode.setFaults(FaultConfig.none().withHangAfterTokens(0));
        long started = System.nanoTime();

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("silent decode", 8, true));

        assertThat(since(started)).isBetween(Duration.ofMillis(450), Duration.ofMillis(1500));
        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(response.headers().firstValue("x-error-pd-decode")).contains("true");
        assertThat(response.headers().firstValue("x-error-pd-prefill")).isEmpty();
        JsonNode error = JSON.readTree(response.body()).get("error");
        assertThat(error.get("message").asText()).contains("no token within 0.5 s");
        String rid = JSON.readTree(SglangIT.only(decode, CHAT).body()).get("rid").asText();
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(JSON.readTree(SglangIT.only(decode, "/abort_request").body()).get("rid").asText()).isEqualTo(rid);
            assertThat(decode.requestsAborted()).isEqualTo(1);
        });
        assertThat(cluster.get("/metrics").body()).contains(WATCHDOG_COUNTER);
    }

    @Test
    void sglangStreamIdle_afterTokens_200CutShortWithStreamError() throws Exception {
        cluster = pair("sglang", Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_DECODE_STREAM_IDLE_TIMEOUT", "0.5"));
        SimPod decode = cluster.simPod("decode-0");
        decode.setFaults(FaultConfig.none().withHangAfterTokens(3));
        String received;
        long started;
        try (RawStream stream = new RawStream(cluster.gateway().port(), CHAT, TestCluster.chat("stall", 40, true))) {
            await().atMost(Duration.ofSeconds(3)).until(stream::contentEvents, n -> n >= 3);
            started = System.nanoTime();
            await().atMost(Duration.ofMillis(1500)).until(stream::poll, text -> text.contains("\"error\""));
            received = stream.poll();
        }
        assertThat(since(started)).isLessThan(Duration.ofMillis(1500));
        assertThat(received).startsWith("HTTP/1.1 200");
        assertThat(received).contains("stalled for 0.5 s").doesNotContain("[DONE]");
        assertThat(received).as("no terminating chunk: the stream ends broken").doesNotEndWith("0\r\n\r\n");
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(decode.requestsAborted()).isEqualTo(1);
            assertThat(decode.openStreams()).isZero();
        });
        assertThat(cluster.get("/metrics").body()).contains(WATCHDOG_COUNTER);
    }

    @Test
    void sglangNonStream_wholeResponseTimeoutFromTheProfile_504() throws Exception {
        String profile = "{\"profiles\":{\"default\":{\"routingStrategy\":\"pd\",\"routingConfig\":"
                + "{\"decodeResponseTimeout\":0.5}}}}";
        cluster = new TestCluster("sglang")
                .pod("prefill-0", io.pdgateway.sim.SimRole.PREFILL, "group-0", Map.of(), profile)
                .pod("decode-0", io.pdgateway.sim.SimRole.DECODE, "group-0", Map.of(), profile)
                .startGateway(Map.of());
        cluster.simPod("decode-0").setFaults(FaultConfig.none().withHangAfterTokens(2));
        long started = System.nanoTime();

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("whole answer", 8, false));

        assertThat(since(started)).isLessThan(Duration.ofMillis(1500));
        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(response.headers().firstValue("x-error-pd-decode")).contains("true");
        assertThat(JSON.readTree(response.body()).get("error").get("message").asText()).contains("within 0.5 s");
        await().atMost(Duration.ofSeconds(3)).until(() -> cluster.simPod("decode-0").requestsAborted() == 1);
    }

    @Test
    void vllmDecodeHangs_504_andTheDecodeConnectionIsClosed() throws Exception {
        cluster = pair("vllm", Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_DECODE_FIRST_RESPONSE_TIMEOUT", "0.5"));
        SimPod decode = cluster.simPod("decode-0");
        decode.setFaults(FaultConfig.none().withHangBeforeHeaders());
        long started = System.nanoTime();

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("hung vllm", 8, true));

        assertThat(since(started)).isLessThan(Duration.ofMillis(1500));
        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(response.headers().firstValue("x-error-pd-decode")).contains("true");
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(decode.openStreams()).isZero();
            assertThat(decode.recordedRequests()).noneMatch(r -> r.path().equals("/abort_request"));
        });
        assertThat(cluster.get("/metrics").body()).contains(WATCHDOG_COUNTER);
    }

    @Test
    void zeroDisables_aSlowButLiveDecodeIsLeftAlone() throws Exception {
        cluster = pair("sglang", Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_DECODE_FIRST_RESPONSE_TIMEOUT", "0",
                "AIBRIX_DECODE_STREAM_IDLE_TIMEOUT", "0"));

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("all fine", 8, true));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).endsWith("data: [DONE]\n\n");
        assertThat(cluster.get("/metrics").body()).doesNotContain("pd_decode_watchdog");
    }
}
