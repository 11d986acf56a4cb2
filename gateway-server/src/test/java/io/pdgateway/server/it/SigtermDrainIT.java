package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.sim.cluster.PodManifest;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import java.net.ConnectException;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Graceful stop: SIGTERM to a real gateway process with a stream in flight. The stream must run to its end, new
 * connections must be refused, and the process must exit within the grace period; a stream that outlives the grace
 * period is cut when it ends.
 */
class SigtermDrainIT {
    private static final String STANDARD = "{\"profiles\":{\"default\":{\"routingConfig\":{\"combined\":true}}}}";
    /** Real H100 speed: 7 ms a token, so a 300-token stream takes about two seconds. */
    private static final double REAL_TIME = 1.0;
    private static final int STREAM_TOKENS = 300;
    /** SIGTERM exit status of a JVM whose shutdown hooks ran: 128 + 15. */
    private static final int SIGTERM_EXIT = 143;

    @AutoClose
    private TestCluster cluster;

    private SimPod standardPod(FaultConfig faults) {
        SimPod sim = cluster.sim("standard-0", SimRole.COMBINED, faults, REAL_TIME);
        cluster.replaceEntry("standard-0", new PodManifest.Entry("default", "standard-0",
                Map.of(SpecLabels.MODEL_NAME, TestCluster.MODEL, SpecLabels.PORT, Integer.toString(sim.port())),
                Map.of(SpecLabels.CONFIG, STANDARD), sim.host(), true));
        return sim;
    }

    private static void assertRefused(int port) {
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() ->
                assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class));
    }

    @Test
    void sigtermWithStreamInFlight_streamCompletes_newConnectionsRefused_exitsWithinGrace() throws Exception {
        int graceSeconds = 20;
        cluster = new TestCluster();
        SimPod sim = standardPod(FaultConfig.none());
        try (GatewayProcess gateway = GatewayProcess.serve(cluster.podFile, "--drain-grace-seconds",
                Integer.toString(graceSeconds));
             RawStream stream = new RawStream(gateway.port(), "/v1/chat/completions",
                     TestCluster.chat("x", STREAM_TOKENS, true))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> stream.contentEvents() > 0);
            assertThat(stream.poll()).doesNotContain("[DONE]");

            long sigterm = System.nanoTime();
            gateway.terminate();
            assertRefused(gateway.port());

            await().atMost(Duration.ofSeconds(graceSeconds)).until(() -> stream.poll().contains("data: [DONE]"));
            assertThat(stream.contentEvents()).isGreaterThanOrEqualTo(STREAM_TOKENS);
            assertThat(gateway.waitForExit(Duration.ofSeconds(graceSeconds))).as("exited").isTrue();
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - sigterm)).isLessThan(graceSeconds);
            assertThat(gateway.exitValue()).isEqualTo(SIGTERM_EXIT);
            assertThat(gateway.output()).contains("draining: 1 requests in flight").contains("drained in");
        }
        assertThat(sim.streamsCancelled()).isZero();
        await().atMost(Duration.ofSeconds(5)).until(() -> sim.openStreams() == 0);
    }

    @Test
    void sigtermWithStreamOutlivingGrace_cutWhenGraceEnds() throws Exception {
        int graceSeconds = 2;
        cluster = new TestCluster();
        // The pod stops answering after a few tokens: the stream would never end by itself.
        SimPod sim = standardPod(FaultConfig.none().withHangAfterTokens(3));
        try (GatewayProcess gateway = GatewayProcess.serve(cluster.podFile, "--drain-grace-seconds",
                Integer.toString(graceSeconds));
             RawStream stream = new RawStream(gateway.port(), "/v1/chat/completions",
                     TestCluster.chat("x", STREAM_TOKENS, true))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> stream.contentEvents() > 0);

            long sigterm = System.nanoTime();
            gateway.terminate();
            assertRefused(gateway.port());
            assertThat(gateway.waitForExit(Duration.ofSeconds(graceSeconds + 5))).as("exited").isTrue();
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sigterm);
            assertThat(tookMs).as("waited out the grace period").isGreaterThanOrEqualTo(graceSeconds * 1000L - 100);
            assertThat(gateway.output()).contains("grace period over");
            assertThat(stream.poll()).doesNotContain("[DONE]");
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> sim.openStreams() == 0);
    }

    @Test
    void draining_readyzFailsAndRequestsOnOpenConnectionsGet503() throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(Map.of());
        assertThat(cluster.post("/v1/chat/completions", TestCluster.chat("x", 1, false)).statusCode()).isEqualTo(200);
        cluster.gateway().drain();
        assertThat(cluster.get("/readyz").statusCode()).isEqualTo(503);
        var refused = cluster.post("/v1/chat/completions", TestCluster.chat("x", 1, false));
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.body()).contains("\"code\":\"gateway_draining\"");
        assertThat(cluster.get("/healthz").statusCode()).isEqualTo(200);
    }
}
