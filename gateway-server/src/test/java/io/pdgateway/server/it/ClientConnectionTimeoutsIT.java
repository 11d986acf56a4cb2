package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Client connections cannot hold sockets for nothing (issue 17, finding 3), with the limits shortened for the test:
 * connections trickling their request head (slowloris) are closed at PD_GATEWAY_REQUEST_HEADER_TIMEOUT_SECONDS,
 * kept-alive connections with no request at PD_GATEWAY_KEEPALIVE_TIMEOUT_SECONDS, each counted by reason, while
 * ordinary requests are served throughout, and a request that takes longer than both limits is not cut by either.
 * bin/bench-connections measures the same at full scale (500 slowloris, 5,000 idle connections; BENCHMARKS.md).
 */
class ClientConnectionTimeoutsIT {
    private static final String HEADER_TIMEOUT = "PD_GATEWAY_REQUEST_HEADER_TIMEOUT_SECONDS";
    private static final String KEEPALIVE_TIMEOUT = "PD_GATEWAY_KEEPALIVE_TIMEOUT_SECONDS";
    private static final int CONNECTIONS = 40;
    /** Timers fire on a busy event loop and the test machine is shared: this much late is still "at the limit". */
    private static final long SLACK_MS = 1_500;
    private static final String HEAD = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
            + "\r\nx-padding: " + "p".repeat(200) + "\r\n";
    @AutoClose
    private TestCluster cluster;

    private List<NetSocket> connect(int count, Map<NetSocket, Long> closedAt) {
        NetClient net = cluster.vertx.createNetClient();
        List<NetSocket> sockets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            NetSocket socket = net.connect(cluster.gateway().port(), "127.0.0.1").await();
            socket.closeHandler(v -> closedAt.put(socket, System.nanoTime()));
            sockets.add(socket);
        }
        return sockets;
    }

    @Test
    void trickledRequestHeads_closedAtTheHeaderTimeout_ordinaryRequestsServedThroughout() throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(Map.of(HEADER_TIMEOUT, "1",
                KEEPALIVE_TIMEOUT, "60"));
        Map<NetSocket, Long> closedAt = new ConcurrentHashMap<>();
        long opened = System.nanoTime();
        List<NetSocket> sockets = connect(CONNECTIONS, closedAt);
        int[] sent = {0};
        // One byte of the head per connection every 100 ms: never a whole head within the limit.
        long trickle = cluster.vertx.setPeriodic(100, id -> {
            byte next = HEAD.getBytes(StandardCharsets.US_ASCII)[sent[0]++ % HEAD.length()];
            sockets.forEach(s -> s.write(Buffer.buffer(new byte[] {next})));
        });
        List<Integer> served = new ArrayList<>();
        try {
            while (closedAt.size() < CONNECTIONS && System.nanoTime() - opened < 10_000_000_000L) {
                served.add(cluster.post("/v1/chat/completions", TestCluster.chat("meanwhile", 2, false)).statusCode());
            }
        } finally {
            cluster.vertx.cancelTimer(trickle);
        }

        assertThat(closedAt).hasSize(CONNECTIONS);
        for (long closed : closedAt.values()) {
            assertThat(Duration.ofNanos(closed - opened)).isBetween(Duration.ofMillis(900),
                    Duration.ofMillis(1_000 + SLACK_MS));
        }
        assertThat(served).isNotEmpty().containsOnly(200);
        assertThat(cluster.get("/metrics").body())
                .contains("pd_gateway_client_connections_closed_total{reason=\"header_timeout\"} " + CONNECTIONS + ".0")
                .contains("pd_gateway_client_connections_closed_total{reason=\"idle_timeout\"} 0.0");
    }

    @Test
    void idleKeptAliveConnections_closedAtTheKeepAliveTimeout() throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(Map.of(HEADER_TIMEOUT, "60",
                KEEPALIVE_TIMEOUT, "1"));
        Map<NetSocket, Long> closedAt = new ConcurrentHashMap<>();
        Map<NetSocket, Long> answeredAt = new ConcurrentHashMap<>();
        List<NetSocket> sockets = connect(CONNECTIONS, closedAt);
        for (NetSocket socket : sockets) {
            socket.handler(data -> answeredAt.putIfAbsent(socket, System.nanoTime()));
            socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> closedAt.size() == CONNECTIONS);
        assertThat(answeredAt).hasSize(CONNECTIONS);
        for (NetSocket socket : sockets) {
            assertThat(Duration.ofNanos(closedAt.get(socket) - answeredAt.get(socket)))
                    .isBetween(Duration.ofMillis(900), Duration.ofMillis(1_000 + SLACK_MS));
        }
        String metrics = cluster.get("/metrics").body();
        assertThat(metrics)
                .contains("pd_gateway_client_connections_closed_total{reason=\"idle_timeout\"} " + CONNECTIONS + ".0")
                .contains("pd_gateway_client_connections_closed_total{reason=\"header_timeout\"} 0.0")
                // the scrape's own connection
                .contains("pd_gateway_client_connections 1.0");
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "PD_GATEWAY_HTTP2_CLEARTEXT={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"false", "true"})
    void silentConnections_closedAtTheHeaderTimeout(String h2c) throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(Map.of(HEADER_TIMEOUT, "1",
                KEEPALIVE_TIMEOUT, "60", "PD_GATEWAY_HTTP2_CLEARTEXT", h2c));
        Map<NetSocket, Long> closedAt = new ConcurrentHashMap<>();
        long opened = System.nanoTime();
        connect(CONNECTIONS, closedAt);

        await().atMost(Duration.ofSeconds(10)).until(() -> closedAt.size() == CONNECTIONS);
        for (long closed : closedAt.values()) {
            assertThat(Duration.ofNanos(closed - opened)).isBetween(Duration.ofMillis(900),
                    Duration.ofMillis(1_000 + SLACK_MS));
        }
    }

    @Test
    void answerSlowerThanBothLimits_servedWhole() throws Exception {
        // Real H100 speed: 150 output tokens take well over a second, with no byte either way until the answer.
        cluster = new TestCluster().standard("slow-0", 1.0).startGateway(Map.of(HEADER_TIMEOUT, "0.5",
                KEEPALIVE_TIMEOUT, "0.5"));
        String body = "{\"model\":\"my-model\",\"messages\":[{\"role\":\"user\",\"content\":\"slow\"}],"
                + "\"max_tokens\":150,\"min_tokens\":150,\"ignore_eos\":true}";
        long started = System.nanoTime();
        HttpResponse<String> slow = cluster.post("/v1/chat/completions", body);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(slow.statusCode()).as(slow.body()).isEqualTo(200);
        assertThat(slow.body()).contains("\"completion_tokens\":150");
        assertThat(took).as("the answer must outlast both limits for this test to mean anything")
                .isGreaterThan(Duration.ofMillis(1_000));
    }
}
