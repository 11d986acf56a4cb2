package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A web page on another origin calling the gateway from a browser: with PD_GATEWAY_CORS_ALLOWED_ORIGINS naming its
 * origin, its preflight is answered without an API key and its requests' answers (errors included) carry the headers
 * that let the page read them; an origin not named gets 403 to its preflight, counted, and answers it cannot read;
 * unset, the gateway answers no origin, as before.
 */
class CrossOriginIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAT = "/v1/chat/completions";
    private static final String PAGE = "https://chat.example.com";
    private TestCluster cluster;

    @AfterEach
    void tearDown() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private TestCluster pair(Map<String, String> env) throws Exception {
        return new TestCluster("vllm").prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startGateway(env);
    }

    /** What a browser sends before a cross-origin POST with JSON and an Authorization header. */
    private HttpResponse<String> preflight(String path, String origin, String method) throws Exception {
        return cluster.http.send(HttpRequest.newBuilder(cluster.uri(path)).timeout(Duration.ofSeconds(10))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).header("Origin", origin)
                .header("Access-Control-Request-Method", method)
                .header("Access-Control-Request-Headers", "authorization,content-type").build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String header(HttpResponse<String> response, String name) {
        return response.headers().firstValue(name).orElse(null);
    }

    @Test
    void listedOrigin_preflightWithoutAKey_thenItsAnswersReadable_errorsIncluded() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd", "PD_GATEWAY_API_KEYS", "sk-1",
                "PD_GATEWAY_CORS_ALLOWED_ORIGINS", "HTTPS://Chat.Example.com, http://localhost:3000"));

        HttpResponse<String> chat = preflight(CHAT, PAGE, "POST");
        assertThat(chat.statusCode()).isEqualTo(204);
        assertThat(header(chat, "access-control-allow-origin")).isEqualTo(PAGE);
        assertThat(header(chat, "vary")).isEqualToIgnoringCase("origin");
        assertThat(header(chat, "access-control-allow-methods")).isEqualTo("POST");
        assertThat(header(chat, "access-control-allow-headers")).isEqualTo("authorization,content-type");
        assertThat(header(chat, "access-control-max-age")).isEqualTo("600");
        assertThat(header(preflight("/v1/models", "http://localhost:3000", "GET"), "access-control-allow-methods"))
                .isEqualTo("GET, HEAD");
        assertThat(cluster.inferenceRequests("prefill-0")).as("a preflight reaches no pod").isEmpty();

        HttpResponse<String> served = cluster.post(CHAT, TestCluster.chat("from a page", 3, true), "Origin", PAGE,
                "Authorization", "Bearer sk-1");
        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(served.body()).contains("data: [DONE]");
        assertThat(header(served, "access-control-allow-origin")).isEqualTo(PAGE);
        assertThat(header(served, "access-control-expose-headers")).contains("x-request-id", "target-pod",
                "prefill-target-pod", "routing-strategy", "retry-after");
        assertThat(header(served, "access-control-allow-credentials")).as("cookies never").isNull();

        HttpResponse<String> keyless = cluster.post(CHAT, TestCluster.chat("no key", 3, false), "Origin", PAGE);
        assertThat(keyless.statusCode()).isEqualTo(401);
        assertThat(header(keyless, "access-control-allow-origin")).as("the page can read why").isEqualTo(PAGE);
        assertThat(JSON.readTree(keyless.body()).path("error").path("code").asText()).isEqualTo("invalid_api_key");
    }

    @Test
    void unlistedOrigin_preflight403Counted_answersItCannotRead() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd", "PD_GATEWAY_CORS_ALLOWED_ORIGINS", PAGE));

        HttpResponse<String> refused = preflight(CHAT, "https://elsewhere.example", "POST");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(header(refused, "access-control-allow-origin")).isNull();
        assertThat(header(refused, "vary")).isEqualToIgnoringCase("origin");
        assertThat(JSON.readTree(refused.body()).path("error").path("code").asText())
                .isEqualTo("cors_origin_not_allowed");
        assertThat(JSON.readTree(refused.body()).path("error").path("message").asText())
                .contains("https://elsewhere.example", "PD_GATEWAY_CORS_ALLOWED_ORIGINS");
        assertThat(cluster.get("/metrics").body())
                .contains("pd_gateway_rejected_requests_total{reason=\"cors_origin_not_allowed\"} 1.0");

        // Not a browser's concern alone: a server-side client that sends an Origin is still served.
        HttpResponse<String> served = cluster.post(CHAT, TestCluster.chat("x", 2, false), "Origin",
                "https://elsewhere.example");
        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(header(served, "access-control-allow-origin")).isNull();
        assertThat(header(served, "vary")).isEqualToIgnoringCase("origin");
        assertThat(preflight("/v1/nowhere", PAGE, "POST").statusCode()).isEqualTo(404);
        assertThat(preflight("/v1/nowhere", "https://elsewhere.example", "POST").statusCode())
                .as("an unlisted origin learns nothing of the paths").isEqualTo(403);
    }

    @Test
    void star_everyOriginAnsweredWithStar() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd", "PD_GATEWAY_CORS_ALLOWED_ORIGINS", "*"));

        HttpResponse<String> preflight = preflight(CHAT, "https://any.example", "POST");
        HttpResponse<String> served = cluster.post(CHAT, TestCluster.chat("x", 2, false), "Origin",
                "https://other.example");

        assertThat(preflight.statusCode()).isEqualTo(204);
        assertThat(header(preflight, "access-control-allow-origin")).isEqualTo("*");
        assertThat(header(preflight, "vary")).as("one answer for every origin").isNull();
        assertThat(header(served, "access-control-allow-origin")).isEqualTo("*");
    }

    @Test
    void unset_noOriginAnswered_optionsStill405() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd"));

        HttpResponse<String> preflight = preflight(CHAT, PAGE, "POST");
        HttpResponse<String> served = cluster.post(CHAT, TestCluster.chat("x", 2, false), "Origin", PAGE);

        assertThat(preflight.statusCode()).isEqualTo(405);
        assertThat(header(preflight, "allow")).isEqualTo("POST");
        assertThat(header(preflight, "access-control-allow-origin")).isNull();
        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(header(served, "access-control-allow-origin")).isNull();
        assertThat(header(served, "vary")).isNull();
    }

    @Test
    void anEntryNoBrowserSends_gatewayRefusesToStart() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0");

        assertThatThrownBy(() -> cluster.startGateway(Map.of("PD_GATEWAY_CORS_ALLOWED_ORIGINS", PAGE + "/")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not an origin");
    }
}
