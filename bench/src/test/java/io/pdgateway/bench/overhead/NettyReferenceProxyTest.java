package io.pdgateway.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pdgateway.server.cli.GatewayVertx;
import io.pdgateway.sim.SimPod;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The reference proxies of {@code bench overhead --jvm-references} relay a streamed answer byte for byte, request
 * after request on one client connection, Netty's in both modes and Vert.x's; and the child wrapper starts and stops
 * each as a process.
 */
class NettyReferenceProxyTest {
    private static final String CHAT = "{\"model\":\"my-model\",\"messages\":[{\"role\":\"user\",\"content\":"
            + "\"four words of prompt\"}],\"max_tokens\":12,\"stream\":true}";

    private Vertx vertx;
    private SimPod pod;

    @BeforeEach
    void pod() throws Exception {
        vertx = Vertx.vertx(GatewayVertx.options());
        Path dir = Files.createTempDirectory("reference-proxy");
        pod = OverheadBenchmark.startInstantPod(vertx, dir.resolve("pods.yaml"));
    }

    @AfterEach
    void stop() {
        vertx.close().await();
    }

    @Test
    void bothModes_relayTheStreamedAnswerAsThePodWroteIt_overOneConnection() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String direct = post(http, pod.host(), pod.port());
        assertThat(direct).contains("data: [DONE]");
        for (String mode : new String[] {NettyReferenceProxy.HTTP, NettyReferenceProxy.TCP}) {
            NettyReferenceProxy proxy = NettyReferenceProxy.start(mode, pod.host(), pod.port());
            try {
                for (int i = 0; i < 3; i++) { // one keep-alive connection: the http mode reuses its pooled upstream
                    assertThat(withoutIds(post(http, "127.0.0.1", proxy.port()))).as(mode).isEqualTo(withoutIds(direct));
                }
            } finally {
                proxy.close();
            }
        }
        assertThatThrownBy(() -> NettyReferenceProxy.start("udp", pod.host(), pod.port()))
                .hasMessageContaining("http or tcp");
    }

    @Test
    void vertx_relaysTheStreamedAnswerAsThePodWroteIt_overOneConnection() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String direct = post(http, pod.host(), pod.port());
        VertxReferenceProxy proxy = VertxReferenceProxy.start(pod.host(), pod.port());
        try {
            for (int i = 0; i < 3; i++) {
                assertThat(withoutIds(post(http, "127.0.0.1", proxy.port()))).isEqualTo(withoutIds(direct));
            }
        } finally {
            proxy.close();
        }
    }

    @Test
    void eachAsAChildProcess_listensAndAnswers_andStops() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        assertThat(ReferenceProxyChild.NAMES).containsExactly("netty-http", "netty-tcp", "vertx-http");
        for (String name : ReferenceProxyChild.NAMES) {
            ReferenceProxyChild child = ReferenceProxyChild.start(name, pod.host(), pod.port());
            ProcessHandle process = ProcessHandle.of(child.pid()).orElseThrow();
            try {
                assertThat(child.name()).isEqualTo(name);
                assertThat(post(http, "127.0.0.1", child.port())).as(name).contains("data: [DONE]");
            } finally {
                child.close();
            }
            assertThat(process.onExit().get(Duration.ofSeconds(20).toSeconds(), java.util.concurrent.TimeUnit.SECONDS)
                    .isAlive()).isFalse();
        }
    }

    private static String post(HttpClient http, String host, int port) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://" + host + ":" + port
                + "/v1/chat/completions")).timeout(Duration.ofSeconds(20)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(CHAT)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    /** Each answer has its own id and creation time; the tokens and the framing are what must match. */
    private static String withoutIds(String sse) {
        return sse.replaceAll("\"id\":\"[^\"]*\"", "\"id\":\"-\"").replaceAll("\"created\":\\d+", "\"created\":0");
    }
}
