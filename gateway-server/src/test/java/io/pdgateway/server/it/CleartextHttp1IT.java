package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With h2c on (PD_GATEWAY_HTTP2_CLEARTEXT=true) the listener still serves HTTP/1.1 clients, whose first request on a
 * connection Vert.x reads with its own decoder (it looks for an upgrade): a POST's body must reach the pod, the strict
 * framing rules must hold from the second request on, and a first request whose end was in doubt must be the last on
 * its connection. A client that upgrades with a body (curl --http2) is served over HTTP/2.
 */
class CleartextHttp1IT {
    private static final String CHAT = "/v1/chat/completions";
    @AutoClose
    private TestCluster cluster;
    private HttpClient upgrading;

    @BeforeEach
    void start() throws Exception {
        cluster = new TestCluster().standard("standard-0")
                .startGateway(Map.of("PD_GATEWAY_HTTP2_CLEARTEXT", "true"));
    }

    @AfterEach
    void tearDown() throws Exception {
        if (upgrading != null) {
            upgrading.close().await(10, TimeUnit.SECONDS);
        }
    }

    private static String post(String body) {
        return "POST " + CHAT + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    /**
     * A chat POST framed both by Content-Length (the whole rest) and as chunked (ending before a GET): whichever a
     * proxy in front went by, the gateway must not answer the GET.
     */
    private static String ambiguousThenSmuggled() {
        String body = TestCluster.chat("ambiguous", 2, false);
        String chunked = Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n";
        String smuggled = "GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n";
        return "POST " + CHAT + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                + (chunked.length() + smuggled.length()) + "\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked
                + smuggled;
    }

    @Test
    void firstRequestPost_bodyReachesThePod_smallAndLarge() throws Exception {
        String small = TestCluster.chat("hello", 2, false);
        String large = TestCluster.chat("hello ".repeat(20_000), 2, false); // 120 KB: many reads, past Netty's buffer
        for (String body : new String[] {small, large}) {
            try (RawStream raw = RawStream.open(cluster.gateway().port())) {
                raw.writeAscii(post(body));
                await().atMost(Duration.ofSeconds(20)).until(raw::poll, text -> text.contains("\"usage\""));
                assertThat(raw.poll()).startsWith("HTTP/1.1 200");
                assertThat(raw.closedByServer()).isFalse();
            }
        }
        assertThat(cluster.inferenceRequests("standard-0")).hasSize(2);
    }

    @Test
    void pipelined_aGetThenAPost_bothAnswered() throws Exception {
        // The POST arrives with the GET, so the decoder Vert.x read the GET with still holds it when the strict one
        // takes over: it must pass it on whole.
        try (RawStream raw = RawStream.open(cluster.gateway().port())) {
            String healthz = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
            raw.writeAscii(healthz + post(TestCluster.chat("piped", 2, false)));
            await().atMost(Duration.ofSeconds(10)).until(raw::poll, text -> text.contains("\"usage\""));
            assertThat(raw.poll()).startsWith("HTTP/1.1 200").contains("\r\n\r\nok").contains("\"usage\"");
            assertThat(raw.closedByServer()).isFalse();
        }
        assertThat(cluster.inferenceRequests("standard-0")).hasSize(1);
    }

    @Test
    void secondRequest_strictFraming_contentLengthBesideTransferEncoding_400_nothingSmuggled() throws Exception {
        try (RawStream raw = RawStream.open(cluster.gateway().port())) {
            raw.writeAscii(post(TestCluster.chat("first", 2, false)));
            await().atMost(Duration.ofSeconds(10)).until(raw::poll, text -> text.contains("\"usage\""));
            raw.writeAscii(ambiguousThenSmuggled());
            await().atMost(Duration.ofSeconds(10)).until(raw::closedByServer);
            String answer = raw.poll();
            assertThat(answer).startsWith("HTTP/1.1 200").contains("HTTP/1.1 400").doesNotContain("\"list\"");
        }
        assertThat(cluster.inferenceRequests("standard-0")).hasSize(1);
    }

    @Test
    void firstRequestChunkedBesideContentLength_servedOnce_connectionClosed_nothingSmuggled() throws Exception {
        try (RawStream raw = RawStream.open(cluster.gateway().port())) {
            raw.writeAscii(ambiguousThenSmuggled());
            await().atMost(Duration.ofSeconds(10)).until(raw::closedByServer);
            String answer = raw.poll();
            // RFC 9112 §6.1: the gateway may serve such a request (Transfer-Encoding wins) if it then closes.
            assertThat(answer).startsWith("HTTP/1.1 200").containsIgnoringCase("connection: close");
            assertThat(answer.indexOf("HTTP/1.1 ", 1)).as("a second response: " + answer).isEqualTo(-1);
        }
        assertThat(cluster.inferenceRequests("standard-0")).hasSize(1);
    }

    @Test
    void firstRequestTransferEncodingOtherThanChunked_400_connectionClosed() throws Exception {
        String body = TestCluster.chat("te", 2, false);
        try (RawStream raw = RawStream.open(cluster.gateway().port())) {
            raw.writeAscii(TestCluster.chunkedChatPost("gzip, chunked", body)
                    + "GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n");
            await().atMost(Duration.ofSeconds(10)).until(raw::closedByServer);
            String answer = raw.poll();
            assertThat(answer).startsWith("HTTP/1.1 400");
            assertThat(answer.indexOf("HTTP/1.1 ", 1)).as("a second response: " + answer).isEqualTo(-1);
        }
        assertThat(cluster.inferenceRequests("standard-0")).isEmpty();
    }

    @Test
    void upgradeRequestWithABody_servedOverHttp2() throws Exception {
        upgrading = cluster.vertx.createHttpClient(new HttpClientOptions().setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(true).setDefaultHost("127.0.0.1"));
        RequestOptions post = new RequestOptions().setMethod(HttpMethod.POST).setPort(cluster.gateway().port())
                .setURI(CHAT).putHeader("content-type", "application/json");

        HttpClientResponse[] served = new HttpClientResponse[1];
        String body = upgrading.request(post).compose(req -> req.send(TestCluster.chat("upgrade", 2, false)))
                .compose(response -> {
                    served[0] = response;
                    return response.body();
                }).await(20, TimeUnit.SECONDS).toString();

        assertThat(served[0].version()).isEqualTo(HttpVersion.HTTP_2);
        assertThat(served[0].statusCode()).isEqualTo(200);
        assertThat(body).contains("\"usage\"");
        assertThat(cluster.inferenceRequests("standard-0")).hasSize(1);
    }
}
