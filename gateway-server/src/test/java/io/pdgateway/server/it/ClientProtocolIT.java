package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import java.util.stream.Stream;

/**
 * The HTTP/1.1 rules the front enforces over a bare socket (issue 17, findings 5 and 9): request framing (RFC 9112
 * §6.1: Content-Length beside Transfer-Encoding, or a Transfer-Encoding other than exactly {@code chunked}, is a 400
 * and the connection closes, so no second request can be smuggled behind the first), the Host header (RFC 9112 §3.2:
 * none or two is a 400), the method (405 method_not_allowed with Allow), the media type (415 unless JSON; a missing
 * Content-Type is read as JSON, as curl users expect), {@code Expect: 100-continue} (the 100 once the headers pass),
 * and error texts that speak of the request, never of the parser.
 */
class ClientProtocolIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAT = "/v1/chat/completions";
    @AutoClose
    private TestCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(Map.of());
    }

    /** Writes the bytes on a fresh connection; the server's whole answer once it closed the connection. */
    private String sendUntilClosed(String request) throws Exception {
        try (RawStream raw = RawStream.open(cluster.gateway().port())) {
            raw.writeAscii(request);
            await().atMost(Duration.ofSeconds(10)).until(raw::closedByServer);
            return raw.poll();
        }
    }

    private static int responses(String text) {
        int count = 0;
        for (int from = text.indexOf("HTTP/1.1 "); from >= 0; from = text.indexOf("HTTP/1.1 ", from + 1)) {
            count++;
        }
        return count;
    }

    @Test
    void contentLengthAndTransferEncoding_400_connectionClosed_nothingSmuggled() throws Exception {
        String body = TestCluster.chat("first", 2, false);
        String chunked = Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n";
        String smuggled = "GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n";
        String answer = sendUntilClosed("POST " + CHAT + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + chunked.length() + "\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked + smuggled);

        assertThat(answer).startsWith("HTTP/1.1 400").contains("\"code\":\"invalid_request\"")
                .contains("both Content-Length and Transfer-Encoding");
        assertThat(responses(answer)).as("responses on the connection: " + answer).isEqualTo(1);
        assertThat(cluster.inferenceRequests("standard-0")).isEmpty();
        assertThat(cluster.get("/metrics").body())
                .contains("pd_gateway_rejected_requests_total{reason=\"invalid_http\"} 1.0");
    }

    @ParameterizedTest(name = "Transfer-Encoding: {0}")
    @ValueSource(strings = {"chunked, identity", "identity", "gzip, chunked", "chunked, chunked", "xchunked"})
    void transferEncodingOtherThanChunked_400_connectionClosed(String encoding) throws Exception {
        String body = TestCluster.chat("te", 2, false);
        String answer = sendUntilClosed(TestCluster.chunkedChatPost(encoding, body)
                + "GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n");

        assertThat(answer).startsWith("HTTP/1.1 400");
        assertThat(responses(answer)).as(answer).isEqualTo(1);
        assertThat(cluster.inferenceRequests("standard-0")).isEmpty();
    }

    @Test
    void plainChunkedBody_served_connectionKept() throws Exception {
        String body = TestCluster.chat("chunked", 2, false);
        try (RawStream raw = RawStream.open(cluster.gateway().port())) {
            raw.writeAscii(TestCluster.chunkedChatPost("chunked", body));
            await().atMost(Duration.ofSeconds(10)).until(raw::poll, text -> text.contains("\"usage\""));
            assertThat(raw.poll()).startsWith("HTTP/1.1 200");
            assertThat(raw.closedByServer()).isFalse();
        }
    }

    @Test
    void expectContinue_100BeforeTheBody_thenServed_butTooLargeRefusedWithout100() throws Exception {
        String body = TestCluster.chat("expect", 2, false);
        String head = "POST " + CHAT + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Expect: 100-continue\r\nContent-Length: ";
        try (RawStream raw = RawStream.open(cluster.gateway().port())) {
            raw.writeAscii(head + body.length() + "\r\n\r\n");
            // A client waits for the 100 before it sends the body (curl gives up after a second and sends it).
            await().atMost(Duration.ofSeconds(5)).until(raw::poll, text -> text.startsWith("HTTP/1.1 100 Continue"));
            raw.writeAscii(body);
            await().atMost(Duration.ofSeconds(10)).until(raw::poll, text -> text.contains("\"usage\""));
            assertThat(raw.poll()).contains("HTTP/1.1 200");
        }
        String answer = sendUntilClosed(head + (64L * 1024 * 1024) + "\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 413").doesNotContain("100 Continue");
        assertThat(cluster.inferenceRequests("standard-0")).hasSize(1);
    }

    @Test
    void noHostOrTwoHosts_400_connectionClosed_butHttp10WithoutHostServed() throws Exception {
        String body = TestCluster.chat("host", 2, false);
        String headers = "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;

        String none = sendUntilClosed("POST " + CHAT + " HTTP/1.1\r\n" + headers);
        String two = sendUntilClosed("POST " + CHAT + " HTTP/1.1\r\nHost: a\r\nHost: b\r\n" + headers);
        String http10 = sendUntilClosed("POST " + CHAT + " HTTP/1.0\r\n" + headers);

        assertThat(none).startsWith("HTTP/1.1 400").contains("Host");
        assertThat(two).startsWith("HTTP/1.1 400").contains("Host");
        assertThat(http10).startsWith("HTTP/1.0 200");
        assertThat(cluster.inferenceRequests("standard-0")).hasSize(1);
    }

    @Test
    void wrongMethodOnAKnownPath_405MethodNotAllowed_withAllow_unknownPath404() throws Exception {
        HttpResponse<String> getChat = cluster.get(CHAT);
        HttpResponse<String> putChat = cluster.http.send(HttpRequest.newBuilder(cluster.uri(CHAT))
                .PUT(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> postModels = cluster.post("/v1/models", "{}");
        HttpResponse<String> deleteUnknown = cluster.http.send(HttpRequest.newBuilder(cluster.uri("/v1/nothing"))
                .DELETE().build(), HttpResponse.BodyHandlers.ofString());

        for (HttpResponse<String> response : List.of(getChat, putChat, postModels)) {
            assertThat(response.statusCode()).as(response.request().method() + " " + response.uri()).isEqualTo(405);
            JsonNode error = JSON.readTree(response.body()).get("error");
            assertThat(error.get("code").asText()).isEqualTo("method_not_allowed");
            assertThat(error.get("type").asText()).isEqualTo("invalid_request_error");
        }
        assertThat(getChat.headers().firstValue("Allow")).contains("POST");
        assertThat(postModels.headers().firstValue("Allow")).contains("GET, HEAD");
        assertThat(deleteUnknown.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(deleteUnknown.body()).at("/error/code").asText()).isEqualTo("not_found");
    }

    @Test
    void headWhereGetIsServed_headersWithoutABody_theConnectionKeptForTheNextRequest() throws Exception {
        String answer = sendUntilClosed("HEAD /v1/models HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");

        assertThat(responses(answer)).as(answer).isEqualTo(2);
        String head = answer.substring(0, answer.indexOf("HTTP/1.1 ", 1));
        assertThat(head).startsWith("HTTP/1.1 200").contains("application/json").endsWith("\r\n\r\n")
                .doesNotContain("my-model");
        assertThat(answer.substring(head.length())).startsWith("HTTP/1.1 200").endsWith("ok");
    }

    @Test
    void nonJsonContentType_415_missingOrJsonWithCharsetServed() throws Exception {
        String body = TestCluster.chat("type", 2, false);
        HttpResponse<String> form = send(body, "application/x-www-form-urlencoded");
        HttpResponse<String> text = send(body, "text/plain");
        HttpResponse<String> jsonCharset = send(body, "application/json; charset=utf-8");
        HttpResponse<String> missing = send(body, null);

        for (HttpResponse<String> refused : List.of(form, text)) {
            assertThat(refused.statusCode()).isEqualTo(415);
            JsonNode error = JSON.readTree(refused.body()).get("error");
            assertThat(error.get("code").asText()).isEqualTo("unsupported_media_type");
            assertThat(error.get("message").asText()).contains("application/json");
        }
        assertThat(jsonCharset.statusCode()).isEqualTo(200);
        assertThat(missing.statusCode()).isEqualTo(200);
        assertThat(cluster.inferenceRequests("standard-0")).hasSize(2);
        assertThat(cluster.get("/metrics").body())
                .contains("pd_gateway_rejected_requests_total{reason=\"unsupported_media_type\"} 2.0");
    }

    /** Bodies the JSON parser refuses, each in a different way (the parser's own texts name its internals). */
    static Stream<String> malformedBodies() {
        String messages = "{\"model\":\"my-model\",\"messages\":[{\"content\":\"x\"}],";
        return Stream.of("{\"model\":\"my-model\",\"messages\":[", "{\"model\":\"my-model\"} {\"x\":1}",
                messages + "\"meta\":" + "[".repeat(300) + "]".repeat(300) + "}", messages + "\"t\":-5e0091722710186}",
                "{'model':'my-model'}", messages + "\"x\":tru}", messages + "\"x\":1,}", "[1, 2]", "");
    }

    @ParameterizedTest
    @MethodSource("malformedBodies")
    void malformedBodies_400InTheRequestsTerms_neverTheParsers(String body) throws Exception {
        HttpResponse<String> plain = cluster.post(CHAT, body);
        HttpResponse<String> viaPd = cluster.post(CHAT, body, "routing-strategy", "pd");

        for (HttpResponse<String> response : List.of(plain, viaPd)) {
            assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
            String message = JSON.readTree(response.body()).at("/error/message").asText();
            assertThat(message).as(message).doesNotContainIgnoringCase("jackson")
                    .doesNotContain("StreamRead", "DeserializationFeature", "JsonNode", "JsonToken", "REDACTED", "`",
                            "START_", "END_", "VALUE_", "ObjectNode", "ArrayNode", "Exception");
        }
    }

    private HttpResponse<String> send(String body, String contentType) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cluster.gateway().port()
                + CHAT)).timeout(Duration.ofSeconds(20)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return cluster.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
