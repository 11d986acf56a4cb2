package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.server.GatewayServer;
import io.pdgateway.sim.FaultConfig;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two gateway replicas on one real Redis: a request routed by replica A shows in replica B's decode score, so B
 * routes around it; killing Redis loses no request and raises the degraded gauge; restarting it restores sharing.
 */
class SharedLedgerIT {
    private TestCluster cluster;
    private RedisProcess redis;
    private RawStream longRequest;

    @AfterEach
    void tearDown() throws Exception {
        if (longRequest != null) {
            longRequest.close();
        }
        if (cluster != null) {
            cluster.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    private HttpResponse<String> post(GatewayServer gateway, String body) throws Exception {
        return cluster.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port()
                        + "/v1/chat/completions")).timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
                .header("x-pd-debug", "true").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private String metrics(GatewayServer gateway) {
        return gateway.metrics().scrape();
    }

    private static double decodeScore(HttpResponse<String> response, String pod) {
        Matcher m = Pattern.compile(pod + ":([0-9.]+)").matcher(response.headers().firstValue("x-pd-decision").orElse(""));
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    @Test
    void replicasShareDecodeLedger_survivesRedisCrash_andRejoin() throws Exception {
        redis = new RedisProcess();
        Map<String, String> env = Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_PREFILL_SCORE_POLICY", "least_request",
                "AIBRIX_DECODE_SCORE_POLICY", "token_load", "REDIS_HOST", "127.0.0.1",
                "REDIS_PORT", Integer.toString(redis.port));
        cluster = new TestCluster().prefill("prefill-0", "rs-0").decode("decode-0", "rs-0")
                .prefill("prefill-1", "rs-1").decode("decode-1", "rs-1").startGateway(env);
        GatewayServer a = cluster.gateway();
        GatewayServer b = cluster.startReplica(env);

        // Replica A routes one long request (a 2000-word prompt) whose stream stalls after a token, so A's charge
        // stays for the whole test.
        cluster.simPod("decode-0").setFaults(FaultConfig.none().withHangAfterTokens(1));
        cluster.simPod("decode-1").setFaults(FaultConfig.none().withHangAfterTokens(1));
        longRequest = new RawStream(a.port(), "/v1/chat/completions",
                TestCluster.chat("word ".repeat(2000).trim(), 1000, true));
        await().atMost(10, TimeUnit.SECONDS).until(() -> longRequest.contentEvents() >= 1);
        cluster.simPod("decode-0").setFaults(FaultConfig.none());
        cluster.simPod("decode-1").setFaults(FaultConfig.none());
        String busy = cluster.simPod("decode-0").openStreams() == 1 ? "decode-0" : "decode-1";
        String idle = busy.equals("decode-0") ? "decode-1" : "decode-0";

        // Replica B never routed it, yet scores the busy pod by A's charge and sends its own requests elsewhere.
        await().atMost(3, TimeUnit.SECONDS).untilAsserted(() -> {
            HttpResponse<String> response = post(b, TestCluster.chat("from b", 2, false));
            assertThat(decodeScore(response, busy)).as(response.headers().toString()).isGreaterThan(2000);
        });
        for (int i = 0; i < 5; i++) {
            assertThat(post(b, TestCluster.chat("b " + i, 2, false)).headers().firstValue("target-pod")).contains(idle);
        }
        assertThat(metrics(b)).contains("pd_gateway_redis_degraded 0.0");

        // Redis dies: nothing fails, both replicas say they are degraded.
        redis.kill();
        for (int i = 0; i < 5; i++) {
            assertThat(post(a, TestCluster.chat("a down " + i, 2, false)).statusCode()).isEqualTo(200);
            assertThat(post(b, TestCluster.chat("b down " + i, 2, false)).statusCode()).isEqualTo(200);
        }
        await().atMost(5, TimeUnit.SECONDS).untilAsserted(() -> {
            assertThat(metrics(a)).contains("pd_gateway_redis_degraded 1.0");
            assertThat(metrics(b)).contains("pd_gateway_redis_degraded 1.0");
        });
        assertThat(decodeScore(post(b, TestCluster.chat("b alone", 2, false)), busy))
                .as("B sees only its own view now").isLessThan(2000);

        // Redis returns: the replicas rejoin by themselves and B sees A's charge again.
        redis.start();
        await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> {
            assertThat(metrics(a)).contains("pd_gateway_redis_degraded 0.0");
            assertThat(decodeScore(post(b, TestCluster.chat("b again", 2, false)), busy)).isGreaterThan(2000);
        });
        longRequest.close();
        longRequest = null;
    }
}
