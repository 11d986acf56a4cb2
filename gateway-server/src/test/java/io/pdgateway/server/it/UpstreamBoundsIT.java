package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.pdgateway.sim.cluster.PodManifest;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Every upstream leg ends within its documented bound, over real sockets against engine-sim pods that hang: a standard
 * pod before its headers, after five tokens, or on a whole non-streaming answer; a PD decode on a non-streaming answer
 * while the spec's AIBRIX_DECODE_RESPONSE_TIMEOUT is at its default 0. A client that stops reading is closed by its
 * own rule (client_slow) and never counted against the healthy decode pod, and a prefill answering a redirect gives
 * the client an OpenAI error with a body. No test waits longer than its configured bound plus about a second.
 */
class UpstreamBoundsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAT = "/v1/chat/completions";
    @AutoClose
    private TestCluster cluster;
    private HttpServer redirecting;

    @AfterEach
    void tearDown() {
        if (redirecting != null) {
            redirecting.close().await();
        }
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    private TestCluster standardPod(Map<String, String> env, FaultConfig faults) throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(env);
        cluster.simPod("standard-0").setFaults(faults);
        return cluster;
    }

    @Test
    void standardPodHangsBeforeHeaders_504UpstreamTimeoutWithinTheFirstByteBound() throws Exception {
        standardPod(Map.of("ROUTING_ALGORITHM", "random", "PD_GATEWAY_UPSTREAM_FIRST_BYTE_TIMEOUT", "0.5"),
                FaultConfig.none().withHangBeforeHeaders());
        long started = System.nanoTime();

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("hung pod", 8, true));

        assertThat(since(started)).isBetween(Duration.ofMillis(450), Duration.ofMillis(1500));
        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(response.headers().firstValue("x-error-pd-decode")).as("not a PD decode").isEmpty();
        JsonNode error = JSON.readTree(response.body()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("upstream_timeout");
        assertThat(error.get("message").asText()).contains("no token within 0.5 s");
        await().atMost(Duration.ofSeconds(3)).until(() -> cluster.simPod("standard-0").openStreams() == 0);
        assertThat(cluster.get("/metrics").body()).contains("status=\"upstream_timeout\",status_code=\"504\"} 1.0");
    }

    @Test
    void standardPodHangsAfterFiveTokens_200CutShortWithinTheIdleBound() throws Exception {
        standardPod(Map.of("ROUTING_ALGORITHM", "random", "PD_GATEWAY_UPSTREAM_STREAM_IDLE_TIMEOUT", "0.5"),
                FaultConfig.none().withHangAfterTokens(5));
        String received;
        long started;
        try (RawStream stream = new RawStream(cluster.gateway().port(), CHAT, TestCluster.chat("stall", 40, true))) {
            await().atMost(Duration.ofSeconds(3)).until(stream::contentEvents, n -> n >= 5);
            started = System.nanoTime();
            await().atMost(Duration.ofMillis(1500)).until(stream::poll, text -> text.contains("\"error\""));
            received = stream.poll();
        }
        assertThat(since(started)).isLessThan(Duration.ofMillis(1500));
        assertThat(received).startsWith("HTTP/1.1 200").contains("stalled for 0.5 s").doesNotContain("[DONE]");
        await().atMost(Duration.ofSeconds(3)).until(() -> cluster.simPod("standard-0").openStreams() == 0);
        assertThat(cluster.get("/metrics").body()).contains("status=\"upstream_timeout\",status_code=\"504\"} 1.0");
    }

    @Test
    void standardPodNonStreamingHang_504WithinTheResponseBound() throws Exception {
        standardPod(Map.of("ROUTING_ALGORITHM", "random", "PD_GATEWAY_UPSTREAM_RESPONSE_TIMEOUT", "0.5"),
                FaultConfig.none().withHangAfterTokens(2));
        long started = System.nanoTime();

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("whole answer", 8, false));

        assertThat(since(started)).isBetween(Duration.ofMillis(450), Duration.ofMillis(1500));
        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(JSON.readTree(response.body()).get("error").get("message").asText()).contains("within 0.5 s");
    }

    @Test
    void pdNonStreamingDecodeHangs_specTimeoutAtItsDefaultZero_theGatewayBound504s() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd", "PD_GATEWAY_UPSTREAM_RESPONSE_TIMEOUT", "0.5"));
        cluster.simPod("decode-0").setFaults(FaultConfig.none().withHangAfterTokens(2));
        long started = System.nanoTime();

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("pd whole answer", 8, false));

        assertThat(since(started)).isLessThan(Duration.ofMillis(1500));
        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(response.headers().firstValue("x-error-pd-decode")).contains("true");
        assertThat(JSON.readTree(response.body()).get("error").get("code").asText()).isEqualTo("decode_timeout");
        await().atMost(Duration.ofSeconds(3)).until(() -> cluster.simPod("decode-0").openStreams() == 0);
    }

    @Test
    void clientStopsReading_closedAsClientSlow_neverCountedAgainstTheHealthyDecodePod() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_DECODE_STREAM_IDLE_TIMEOUT", "0.5",
                        "PD_GATEWAY_CLIENT_WRITE_STALL_TIMEOUT", "2"));
        byte[] body = TestCluster.chat("a long answer nobody reads", 20_000, true).getBytes(StandardCharsets.UTF_8);
        try (Socket client = new Socket()) {
            client.setReceiveBufferSize(1024); // before connecting: a small window the gateway fills at once
            client.connect(new InetSocketAddress("127.0.0.1", cluster.gateway().port()));
            OutputStream out = client.getOutputStream();
            out.write(("POST " + CHAT + " HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            // The client never reads. Its stall outlasts the decode idle bound (0.5 s) four times over.
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(cluster.get("/metrics").body())
                    .contains("status=\"client_slow\",status_code=\"499\"} 1.0"));
        }
        String metrics = cluster.get("/metrics").body();
        assertThat(metrics).doesNotContain("pd_decode_watchdog");
        await().atMost(Duration.ofSeconds(3)).until(() -> cluster.simPod("decode-0").openStreams() == 0);
        HttpResponse<String> next = cluster.post(CHAT, TestCluster.chat("the pod is fine", 8, false));
        assertThat(next.statusCode()).isEqualTo(200);
    }

    @Test
    void prefillAnswersRedirect_502OpenAiErrorWithABody() throws Exception {
        redirecting = cluster().vertx.createHttpServer().requestHandler(request -> {
            if (request.path().equals("/metrics")) {
                request.response().end(""); // scrapes succeed: only the inference leg redirects
            } else {
                request.response().setStatusCode(307).putHeader("Location", "http://elsewhere.invalid/").end();
            }
        }).listen(0, "127.0.0.1").await();
        cluster.decode("decode-0", "group-0");
        cluster.replaceEntry("prefill-redirect", new PodManifest.Entry("default", "prefill-redirect", Map.of(
                SpecLabels.MODEL_NAME, TestCluster.MODEL, SpecLabels.PORT, Integer.toString(redirecting.actualPort()),
                SpecLabels.ENGINE, "vllm", SpecLabels.ROLE_NAME, "prefill", SpecLabels.ROLESET_NAME, "group-0"),
                Map.of(), "127.0.0.1", true));
        cluster.startGateway(Map.of("ROUTING_ALGORITHM", "pd"));

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("redirected", 8, false));

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.headers().firstValue("x-error-pd-prefill")).contains("true");
        assertThat(response.headers().firstValue("content-type")).contains("application/json");
        JsonNode error = JSON.readTree(response.body()).get("error");
        assertThat(error.get("message").asText()).contains("307");
        assertThat(error.get("code").asText()).isEqualTo("prefill_failed");
    }

    private TestCluster cluster() throws IOException {
        cluster = new TestCluster();
        return cluster;
    }
}
