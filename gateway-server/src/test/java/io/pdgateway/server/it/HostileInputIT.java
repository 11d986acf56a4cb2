package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.sim.RecordedRequest;
import io.pdgateway.sim.SimRole;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a hostile or broken client gets, and that it costs the gateway nothing lasting: deeply nested JSON and wrong
 * field types are clear 400s naming the problem, invalid UTF-8 a 400, an oversized body 413 even without a
 * Content-Length, oversized headers 431, a client that stalls its body 408 within its timeout and a closed
 * connection; client-sent target-pod / prefill-target-pod headers neither steer routing nor reach a pod; an
 * over-long session key is ignored, not an error; an invalid config annotation or an unknown policy name keeps the
 * defaults. Every refusal is counted in pd_gateway_rejected_requests_total, and the ledgers end at zero (TestCluster).
 */
class HostileInputIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAT = "/v1/chat/completions";
    @AutoClose
    private TestCluster cluster;

    private TestCluster pair(Map<String, String> env) throws Exception {
        return new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0").startGateway(env);
    }

    private static JsonNode error(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body()).get("error");
    }

    private String metrics() throws Exception {
        return cluster.get("/metrics").body();
    }

    @Test
    void deeplyNestedJson_400NamingTheLimit_evenAtAHundredThousandLevels() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd"));
        String atLimit = "{\"model\":\"my-model\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"meta\":"
                + "[".repeat(125) + "]".repeat(125) + "}";
        String tooDeep = "{\"model\":\"my-model\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"meta\":"
                + "[".repeat(100_000) + "]".repeat(100_000) + "}";

        assertThat(cluster.post(CHAT, atLimit).statusCode()).as("128 levels are fine").isEqualTo(200);
        HttpResponse<String> response = cluster.post(CHAT, tooDeep);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response).get("message").asText()).contains("at most 128 levels of nesting");
        assertThat(error(response).get("type").asText()).isEqualTo("invalid_request_error");
        assertThat(metrics()).contains("pd_gateway_rejected_requests_total{reason=\"invalid_body\"} 1.0");
    }

    /** A body with a field of the wrong type, and the param the 400 must name. */
    record WrongType(String name, String path, String body, String param) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<WrongType> wrongTypes() {
        String messages = "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]";
        return Stream.of(
                new WrongType("model a number", CHAT, "{\"model\":42," + messages + "}", "model"),
                new WrongType("model an object", CHAT, "{\"model\":{\"id\":\"my-model\"}," + messages + "}", "model"),
                new WrongType("messages a string", CHAT, "{\"model\":\"my-model\",\"messages\":\"hi\"}", "messages"),
                new WrongType("message not an object", CHAT, "{\"model\":\"my-model\",\"messages\":[1]}", "messages"),
                new WrongType("stream a string", CHAT, "{\"model\":\"my-model\"," + messages + ",\"stream\":\"yes\"}",
                        "stream"),
                new WrongType("prompt an object", "/v1/completions", "{\"model\":\"my-model\",\"prompt\":{}}", "prompt"),
                new WrongType("prompt mixed list", "/v1/completions", "{\"model\":\"my-model\",\"prompt\":[\"a\",1]}",
                        "prompt"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wrongTypes")
    void wrongFieldType_400NamingTheField_noPodCalled(WrongType row) throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd"));

        HttpResponse<String> response = cluster.post(row.path(), row.body());

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response).get("param").asText()).isEqualTo(row.param());
        assertThat(cluster.inferenceRequests("prefill-0")).isEmpty();
    }

    @Test
    void invalidUtf8_400() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd"));
        byte[] body = TestCluster.chat("caf\u00e9", 2, false).getBytes(StandardCharsets.UTF_8);
        int e9 = indexOf(body, (byte) 0xA9); // the second byte of é: make it start no sequence at all
        body[e9 - 1] = (byte) 0xFF;
        try (RawStream raw = RawStream.open(cluster.gateway().port())) {
            raw.write(("POST " + CHAT + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            raw.write(body);
            await().atMost(Duration.ofSeconds(5)).until(raw::poll, text -> text.contains("\"error\""));
            assertThat(raw.poll()).startsWith("HTTP/1.1 400").contains("not valid UTF-8");
        }
        assertThat(cluster.inferenceRequests("prefill-0")).isEmpty();
    }

    @Test
    void oversizedChunkedBody_413_connectionClosed() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd", "PD_GATEWAY_MAX_REQUEST_BODY_BYTES", "1000"));
        try (RawStream raw = RawStream.open(cluster.gateway().port())) {
            raw.write(("POST " + CHAT + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String chunk = "x".repeat(600);
            for (int i = 0; i < 2; i++) {
                raw.write((Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n").getBytes(StandardCharsets.US_ASCII));
            }
            await().atMost(Duration.ofSeconds(5)).until(raw::closedByServer);
            assertThat(raw.poll()).startsWith("HTTP/1.1 413").contains("request_too_large");
        }
        assertThat(metrics()).contains("pd_gateway_rejected_requests_total{reason=\"body_too_large\"} 1.0");
    }

    @Test
    void hugeHeaders_431_noPodCalled() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd"));
        byte[] body = TestCluster.chat("x", 2, false).getBytes(StandardCharsets.UTF_8);
        try (RawStream raw = RawStream.open(cluster.gateway().port())) {
            raw.write(("POST " + CHAT + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nx-aibrix-session-key: "
                    + "k".repeat(20_000) + "\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            raw.write(body);
            await().atMost(Duration.ofSeconds(5)).until(raw::closedByServer);
            assertThat(raw.poll()).startsWith("HTTP/1.1 431").contains("\"type\":\"invalid_request_error\"")
                    .contains("\"code\":\"headers_too_large\"")
                    .contains("larger than 16384 bytes");
        }
        assertThat(cluster.inferenceRequests("prefill-0")).isEmpty();
        assertThat(metrics()).contains("pd_gateway_rejected_requests_total{reason=\"headers_too_large\"} 1.0");
    }

    @Test
    void hugeRequestLine_414NamingTheLimit_connectionClosed() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd"));
        try (RawStream raw = RawStream.open(cluster.gateway().port())) {
            raw.write(("GET /v1/models?" + "q".repeat(10_000) + " HTTP/1.1\r\nHost: x\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            await().atMost(Duration.ofSeconds(5)).until(raw::closedByServer);
            // Netty could not read the line's HTTP version, so the answer is in HTTP/1.0, as Vert.x's own was.
            assertThat(raw.poll()).startsWith("HTTP/1.0 414").contains("\"code\":\"uri_too_long\"")
                    .contains("longer than 4096 bytes");
        }
        assertThat(metrics()).contains("pd_gateway_rejected_requests_total{reason=\"uri_too_long\"} 1.0");
    }

    @Test
    void clientStallsItsBody_408WithinTheTimeoutPlusOneSecond_connectionClosed() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd", "PD_GATEWAY_REQUEST_BODY_TIMEOUT_SECONDS", "0.5"));
        try (RawStream raw = RawStream.open(cluster.gateway().port())) {
            raw.write(("POST " + CHAT + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500"
                    + "\r\n\r\n{\"model\":").getBytes(StandardCharsets.US_ASCII));
            long started = System.nanoTime();
            // A trickle does not help: the timeout covers the whole body, not the gap between two reads.
            while (!raw.closedByServer() && System.nanoTime() - started < 3_000_000_000L) {
                raw.write(" ".getBytes(StandardCharsets.US_ASCII));
            }
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(1500));
            assertThat(raw.poll()).startsWith("HTTP/1.1 408").contains("request_timeout");
        }
        assertThat(metrics()).contains("pd_gateway_rejected_requests_total{reason=\"body_timeout\"} 1.0");
        assertThat(cluster.inferenceRequests("prefill-0")).isEmpty();
    }

    @Test
    void clientTargetPodHeaders_neitherSteerRoutingNorReachAPod() throws Exception {
        // standard-0 is never a candidate here (bucketing off): a header naming it could only win by steering.
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .standard("standard-0").startGateway(Map.of("ROUTING_ALGORITHM", "pd"));
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("steer " + i, 2, false),
                    "target-pod", "standard-0", "prefill-target-pod", "standard-0",
                    "target-pod-ip", cluster.simPod("standard-0").host() + ":" + cluster.simPod("standard-0").port());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().allValues("target-pod")).containsExactly("decode-0");
            assertThat(response.headers().allValues("prefill-target-pod")).containsExactly("prefill-0");
        }
        assertThat(cluster.inferenceRequests("standard-0")).isEmpty();
        for (String pod : new String[] {"prefill-0", "decode-0"}) {
            for (RecordedRequest received : cluster.inferenceRequests(pod)) {
                assertThat(received.headers()).doesNotContainKeys("target-pod", "prefill-target-pod", "target-pod-ip");
            }
        }
    }

    @Test
    void sessionKeyOver256Bytes_ignoredNotAnError() throws Exception {
        cluster = new TestCluster().standard("standard-0").standard("standard-1").standard("standard-2")
                .startGateway(Map.of("ROUTING_ALGORITHM", "session-affinity"));
        Set<String> shortKeyTargets = new HashSet<>();
        Set<String> longKeyTargets = new HashSet<>();
        for (int i = 0; i < 8; i++) {
            shortKeyTargets.add(target(cluster.post(CHAT, TestCluster.chat("s" + i, 1, false),
                    "x-aibrix-session-key", "k".repeat(256))));
            longKeyTargets.add(target(cluster.post(CHAT, TestCluster.chat("l" + i, 1, false),
                    "x-aibrix-session-key", "k".repeat(257))));
        }
        assertThat(shortKeyTargets).as("256 bytes: a key, so the session sticks").hasSize(1);
        assertThat(longKeyTargets).as("257 bytes: no key, so requests spread").hasSizeGreaterThan(1);
    }

    private static String target(HttpResponse<String> response) {
        assertThat(response.statusCode()).isEqualTo(200);
        return response.headers().firstValue("target-pod").orElseThrow();
    }

    @Test
    void invalidAnnotationJson_ignored_podsStillRouteOnDefaults() throws Exception {
        cluster = new TestCluster().pod("prefill-0", SimRole.PREFILL, "group-0", Map.of(), "{not json")
                .pod("decode-0", SimRole.DECODE, "group-0", Map.of(), "{\"profiles\": [1, 2")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd"));

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("still fine", 2, false));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("prefill-target-pod")).contains("prefill-0");
    }

    @Test
    void unknownPolicyNames_defaultsKept_requestsServed() throws Exception {
        // The warning is logged once per profile (PdKnobsTest.resolver_warnsOncePerProfile); here: nothing breaks.
        String profile = "{\"profiles\":{\"default\":{\"routingStrategy\":\"pd\",\"routingConfig\":"
                + "{\"prefillScorePolicy\":\"fastest_please\",\"decodeScorePolicy\":\"also_made_up\"}}}}";
        cluster = new TestCluster().pod("prefill-0", SimRole.PREFILL, "group-0", Map.of(), profile)
                .pod("decode-0", SimRole.DECODE, "group-0", Map.of(), profile)
                .startGateway(Map.of("AIBRIX_PREFILL_SCORE_POLICY", "made_up_too"));
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("policy " + i, 2, false));
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("routing-strategy")).contains("pd");
        }
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        throw new IllegalArgumentException("byte not found");
    }
}
