package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * HTTP/2 over cleartext (issue 17, finding 7): off unless PD_GATEWAY_HTTP2_CLEARTEXT=true; when on, a client that
 * opens POST streams and resets each at once (rapid reset, CVE-2023-44487) gets few of them to a pod and few log
 * lines out of the gateway. The gateway runs as its own process so that its log can be counted.
 */
class Http2CleartextIT {
    private static final String CHAT = "/v1/chat/completions";
    private static final int RESETS = 1_000;
    @AutoClose
    private TestCluster cluster;
    private GatewayProcess process;
    private HttpClient h2;

    @AfterEach
    void tearDown() {
        if (h2 != null) {
            h2.close().await();
        }
        if (process != null) {
            process.close();
        }
    }

    private HttpClient priorKnowledgeClient() {
        return cluster.vertx.createHttpClient(new HttpClientOptions().setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(false).setDefaultHost("127.0.0.1"));
    }

    @Test
    void offByDefault_anHttp2ClientIsNotServedHttp2() throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(Map.of());
        h2 = priorKnowledgeClient();

        Throwable refused = catchThrowable(() -> h2.request(new RequestOptions().setMethod(HttpMethod.GET)
                .setPort(cluster.gateway().port()).setURI("/healthz"))
                .compose(req -> req.send()).map(HttpClientResponse::version).await(10, TimeUnit.SECONDS));

        assertThat(refused).as("an HTTP/2 connection preface to an HTTP/1.1-only listener").isNotNull();
        assertThat(cluster.get("/healthz").statusCode()).isEqualTo(200);
    }

    @Test
    void on_upgradeFromHttp11_served_idleConnectionsStillClosed() throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(Map.of("PD_GATEWAY_HTTP2_CLEARTEXT", "true",
                "PD_GATEWAY_KEEPALIVE_TIMEOUT_SECONDS", "1"));
        java.net.http.HttpClient upgrading = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_2).build();

        java.net.http.HttpResponse<String> first = upgrading.send(java.net.http.HttpRequest.newBuilder(
                cluster.uri("/healthz")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        java.net.http.HttpResponse<String> chat = upgrading.send(java.net.http.HttpRequest.newBuilder(cluster.uri(CHAT))
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(TestCluster.chat("up", 2, false))).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());

        assertThat(first.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_2);
        assertThat(chat.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_2);
        assertThat(chat.statusCode()).isEqualTo(200);
        // The upgraded connection, idle now, is closed like any other: only the scrape's own (HTTP/1.1) stays open.
        java.net.http.HttpClient scraper = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build();
        java.util.concurrent.Callable<String> scrape = () -> scraper.send(java.net.http.HttpRequest.newBuilder(
                cluster.uri("/metrics")).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(scrape.call()).contains("pd_gateway_client_connections 1.0")
                        .contains("pd_gateway_client_connections_closed_total{reason=\"idle_timeout\"} 1.0"));
    }

    @Test
    void on_rapidResetOfPostStreams_fewReachAPod_fewLogLines() throws Exception {
        cluster = new TestCluster().standard("standard-0");
        cluster.writePodFile();
        process = GatewayProcess.serve(Map.of("PD_GATEWAY_HTTP2_CLEARTEXT", "true"),
                List.of("--pods", cluster.podFile.toString()));
        h2 = priorKnowledgeClient();
        RequestOptions post = new RequestOptions().setMethod(HttpMethod.POST).setPort(process.port()).setURI(CHAT)
                .putHeader("content-type", "application/json");
        // Proof that the listener speaks HTTP/2 and serves a stream that is not reset.
        HttpClientResponse served = h2.request(post).compose(req -> req.send(TestCluster.chat("h2", 2, false)))
                .await(20, TimeUnit.SECONDS);
        assertThat(served.version()).isEqualTo(HttpVersion.HTTP_2);
        assertThat(served.statusCode()).isEqualTo(200);
        int linesBefore = process.output().split("\n").length;

        Buffer body = Buffer.buffer(TestCluster.chat("reset me", 64, true));
        for (int i = 0; i < RESETS; i++) {
            // Headers and the whole body, then RST_STREAM at once: what a rapid-reset client sends.
            Future<HttpClientRequest> opened = h2.request(post);
            try {
                HttpClientRequest req = opened.await(10, TimeUnit.SECONDS);
                req.end(body);
                req.reset();
            } catch (Exception e) {
                // The gateway closes a connection that resets too often; the client opens another.
            }
        }
        // Every reset stream has either reached the pod by now or never will: the gateway's requests take milliseconds.
        // A fresh client: the gateway sent the resetting one GOAWAY (ENHANCE_YOUR_CALM) after 200 resets.
        h2.close().await();
        h2 = priorKnowledgeClient();
        HttpClientResponse after = h2.request(post).compose(req -> req.send(TestCluster.chat("after", 2, false)))
                .await(20, TimeUnit.SECONDS);
        assertThat(after.statusCode()).isEqualTo(200);

        long podRequests = cluster.inferenceRequests("standard-0").size() - 2;
        List<String> newLines = List.of(process.output().split("\n")).subList(linesBefore,
                process.output().split("\n").length);
        System.out.println("rapid reset: " + podRequests + " of " + RESETS + " reset streams reached the pod, "
                + newLines.size() + " log lines");
        assertThat(podRequests).as("reset streams that reached the pod").isLessThanOrEqualTo(RESETS / 20);
        assertThat(newLines.stream().filter(l -> l.contains("ERROR") || l.contains("WARN")).count())
                .as("log lines: " + String.join("\n", newLines)).isLessThanOrEqualTo(5);
        assertThat(newLines).as("the rate-limited line").anyMatch(l -> l.contains("HTTP/2 streams reset by clients"));
    }
}
