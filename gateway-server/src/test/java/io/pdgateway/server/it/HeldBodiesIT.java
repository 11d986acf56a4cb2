package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.sim.FaultConfig;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * PD_GATEWAY_MAX_HELD_BODY_BYTES: the request bodies held by all requests together are bounded, each counted as its
 * bytes arrive. A request that would pass the bound gets 503 in OpenAI format with Retry-After, keeps none of its body (the rest is read and dropped
 * first, so that a client still sending hears the answer rather than a reset) and reaches no pod; a body counts
 * until no leg will be built from it (a stream held at its decode pod holds none) or its client leaves; and
 * /metrics shows the bytes held, the bound and the refusals.
 */
class HeldBodiesIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAT = "/v1/chat/completions";
    /** Two of these bodies fit under the bound, three do not. */
    private static final int PROMPT_CHARS = 100_000;
    private static final long LIMIT = 250_000;
    @AutoClose
    private TestCluster cluster;

    private void pdPair() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_DECODE_STREAM_IDLE_TIMEOUT", "0",
                        "PD_GATEWAY_MAX_HELD_BODY_BYTES", String.valueOf(LIMIT)));
    }

    private static String longChat(String tag) {
        return TestCluster.chat(tag + " " + "word ".repeat(PROMPT_CHARS / 5), 16, true);
    }

    private static long bytes(String body) {
        return body.getBytes(StandardCharsets.UTF_8).length;
    }

    /** A value on /metrics by its whole series name (labels included), or -1. */
    private double metric(String series) throws Exception {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$")
                .matcher(cluster.get("/metrics").body());
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }

    private double held() throws Exception {
        return metric("pd_gateway_held_request_body_bytes");
    }

    @Test
    void atTheBound_next503WithRetryAfter_beforeAnyPod_andALeavingClientMakesRoom() throws Exception {
        pdPair();
        cluster.simPod("prefill-0").setFaults(FaultConfig.none().withHangBeforeHeaders()); // bodies stay needed
        String one = longChat("one");
        String two = longChat("two");
        try (RawStream first = new RawStream(cluster.gateway().port(), CHAT, one);
                RawStream second = new RawStream(cluster.gateway().port(), CHAT, two)) {
            await().atMost(Duration.ofSeconds(5)).until(() -> cluster.inferenceRequests("prefill-0").size() == 2);
            assertThat(held()).isEqualTo((double) (bytes(one) + bytes(two)));
            assertThat(metric("pd_gateway_held_request_body_limit_bytes")).isEqualTo((double) LIMIT);

            try (RawStream third = new RawStream(cluster.gateway().port(), CHAT, longChat("three"))) {
                await().atMost(Duration.ofSeconds(5)).until(third::closedByServer);
                String answer = third.poll();
                assertThat(answer).startsWith("HTTP/1.1 503").contains("Retry-After: 1");
                JsonNode error = JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4)).get("error");
                assertThat(error.get("type").asText()).isEqualTo("overloaded_error");
                assertThat(error.get("code").asText()).isEqualTo("held_bodies_full");
                assertThat(error.get("message").asText()).contains("PD_GATEWAY_MAX_HELD_BODY_BYTES");
            }
            assertThat(cluster.inferenceRequests("prefill-0")).hasSize(2);
            assertThat(metric("pd_gateway_rejected_requests_total{reason=\"held_bodies_full\"}")).isEqualTo(1.0);
            assertThat(held()).as("the refused body was never counted").isEqualTo((double) (bytes(one) + bytes(two)));

            first.close(); // its client leaves: its body goes
            await().atMost(Duration.ofSeconds(5)).until(() -> held() == bytes(two));
            try (RawStream fourth = new RawStream(cluster.gateway().port(), CHAT, longChat("four"))) {
                await().atMost(Duration.ofSeconds(5)).until(() -> cluster.inferenceRequests("prefill-0").size() == 3);
                assertThat(fourth.poll()).doesNotContain("503");
            }
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> held() == 0.0);
    }

    @Test
    void aStreamHeldAtItsDecodePod_holdsNoBody() throws Exception {
        pdPair();
        cluster.simPod("decode-0").setFaults(FaultConfig.none().withHangAfterTokens(1));
        List<RawStream> streams = new ArrayList<>();
        try {
            // One after another, each held open at its decode pod once its first token is out: three bodies over a
            // bound of two pass, since each let go once its legs were out.
            for (String tag : new String[] {"one", "two", "three"}) {
                RawStream stream = new RawStream(cluster.gateway().port(), CHAT, longChat(tag));
                streams.add(stream);
                await().atMost(Duration.ofSeconds(5)).until(stream::contentEvents, n -> n >= 1);
                assertThat(held()).isEqualTo(0.0);
            }
            assertThat(metric("pd_gateway_rejected_requests_total{reason=\"held_bodies_full\"}"))
                    .as("no refusal: the series is absent or 0").isLessThan(1.0);
        } finally {
            for (RawStream stream : streams) {
                stream.close();
            }
        }
    }

    @Test
    void aChunkedBodyPastTheBound_503OnceItsRestIsReadAndDropped() throws Exception {
        pdPair();
        cluster.simPod("prefill-0").setFaults(FaultConfig.none().withHangBeforeHeaders());
        String one = longChat("one");
        try (RawStream first = new RawStream(cluster.gateway().port(), CHAT, one);
                RawStream chunked = RawStream.open(cluster.gateway().port())) {
            await().atMost(Duration.ofSeconds(5)).until(() -> held() == bytes(one));
            chunked.writeAscii("POST " + CHAT + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n");
            String chunk = "x".repeat(50_000);
            for (int i = 0; i < 4; i++) {
                chunked.writeAscii(Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n");
            }
            assertThat(chunked.poll()).as("the client still sending hears nothing yet, so it sees no reset").isEmpty();
            chunked.writeAscii("0\r\n\r\n");
            await().atMost(Duration.ofSeconds(5)).until(chunked::closedByServer);
            assertThat(chunked.poll()).startsWith("HTTP/1.1 503").contains("held_bodies_full");
            assertThat(held()).as("only the first body is held").isEqualTo((double) bytes(one));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> held() == 0.0);
    }

    @Test
    void aBodyDeclaredAndNotSent_holdsNothing_untilItsBytesArrive() throws Exception {
        pdPair();
        cluster.simPod("prefill-0").setFaults(FaultConfig.none().withHangBeforeHeaders());
        byte[] body = longChat("slow").getBytes(StandardCharsets.UTF_8);
        try (RawStream slow = RawStream.open(cluster.gateway().port())) {
            slow.writeAscii("POST " + CHAT + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n");
            // A declared body the client does not send reserves nothing: a few such clients must not shut out
            // everyone else for the body timeout.
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> held() == 0.0);
            slow.write(body);
            await().atMost(Duration.ofSeconds(5)).until(() -> held() == body.length);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> held() == 0.0);
    }
}
