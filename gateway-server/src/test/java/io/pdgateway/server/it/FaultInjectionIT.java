package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.sim.cluster.PodManifest;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimPod;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Faults end to end, for those no other suite covers (the README's fault table names the test of each): a prefill
 * pod killed mid-request, a decode that drops its connection before or during the stream, a client that leaves
 * during the prefill or between the legs, Redis killed and restarted under concurrent load, the pod file deleted,
 * a metrics endpoint that never answers, and a burst of every fault at once leaking no file descriptor or connection.
 * Each test checks what the client sees and that nobody waits past the configured timeout plus one second;
 * TestCluster checks afterwards that every ledger, tracker and counter is back to zero.
 */
class FaultInjectionIT {
    private static final String CHAT = "/v1/chat/completions";
    /** Every timeout in this suite: short, so waiting past it plus one second is a failure, not a slow machine. */
    private static final Map<String, String> SHORT_TIMEOUTS = Map.of("ROUTING_ALGORITHM", "pd",
            "AIBRIX_PREFILL_REQUEST_TIMEOUT", "1", "AIBRIX_DECODE_FIRST_RESPONSE_TIMEOUT", "1",
            "AIBRIX_DECODE_STREAM_IDLE_TIMEOUT", "1");
    private static final Duration TIMEOUT_PLUS_ONE = Duration.ofSeconds(2);
    private TestCluster cluster;
    private RedisProcess redis;
    private NetServer blackHole;

    @AfterEach
    void tearDown() {
        if (blackHole != null) {
            blackHole.close().await();
        }
        if (cluster != null) {
            cluster.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    private TestCluster pair(Map<String, String> env) throws Exception {
        return new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0").startGateway(env);
    }

    private String metrics() throws Exception {
        return cluster.get("/metrics").body();
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    private CompletableFuture<HttpResponse<String>> postAsync(String body) {
        return cluster.http.sendAsync(HttpRequest.newBuilder(cluster.uri(CHAT)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void prefillPodKilledMidRequest_502WithPrefillHeader_atOnce() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd")); // the 30 s prefill timeout cannot be what ends it
        SimPod prefill = cluster.simPod("prefill-0");
        prefill.setFaults(FaultConfig.none().withHangBeforeHeaders());
        CompletableFuture<HttpResponse<String>> pending = postAsync(TestCluster.chat("doomed", 4, false));
        await().atMost(Duration.ofSeconds(5)).until(() -> prefill.openStreams() == 1);
        long killed = System.nanoTime();

        cluster.stopPod("prefill-0");

        HttpResponse<String> response = pending.get();
        assertThat(since(killed)).as("the broken connection fails it, not the prefill timeout").isLessThan(
                TIMEOUT_PLUS_ONE);
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.headers().firstValue("x-error-pd-prefill")).contains("true");
        assertThat(cluster.inferenceRequests("decode-0")).isEmpty();
        assertThat(metrics()).contains("gateway_prefill_request_fail_total{status=\"error\",status_code=\"502\"} 1.0");
    }

    @Test
    void decodeDropsBeforeAnyByte_502WithoutPrefillHeader() throws Exception {
        cluster = pair(SHORT_TIMEOUTS);
        cluster.simPod("decode-0").setFaults(FaultConfig.none().withDropAfterTokens(0));

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("dropped", 4, true));

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.headers().firstValue("x-error-pd-prefill")).isEmpty();
        assertThat(response.body()).contains("\"type\":\"api_error\"");
        assertThat(metrics()).contains("status=\"upstream_error\",status_code=\"502\"} 1.0");
    }

    @Test
    void decodeDropsMidStream_200CutShortWithErrorEvent_noDone() throws Exception {
        cluster = pair(SHORT_TIMEOUTS);
        cluster.simPod("decode-0").setFaults(FaultConfig.none().withDropAfterTokens(3));
        String received;
        long started = System.nanoTime();
        try (RawStream stream = new RawStream(cluster.gateway().port(), CHAT, TestCluster.chat("cut", 40, true))) {
            await().atMost(Duration.ofSeconds(5)).until(stream::closedByServer);
            received = stream.poll();
        }
        assertThat(since(started)).isLessThan(TIMEOUT_PLUS_ONE);
        assertThat(received).startsWith("HTTP/1.1 200").contains("broke off the response").doesNotContain("[DONE]");
        assertThat(received).as("no terminating chunk: the stream ends broken").doesNotEndWith("0\r\n\r\n");
        assertThat(metrics()).contains("status=\"upstream_broke_off\",status_code=\"502\"} 1.0");
    }

    @Test
    void clientLeavesDuringThePrefill_prefillConnectionClosed_decodeNeverSent() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd")); // the default 30 s prefill timeout must not be what ends it
        SimPod prefill = cluster.simPod("prefill-0");
        prefill.setFaults(FaultConfig.none().withHangBeforeHeaders());
        try (RawStream stream = new RawStream(cluster.gateway().port(), CHAT, TestCluster.chat("bye", 8, true))) {
            await().atMost(Duration.ofSeconds(5)).until(() -> prefill.openStreams() == 1);
        }
        // Within three seconds: the departure closes the leg, not the 30 s prefill timeout.
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(prefill.openStreams()).isZero();
            assertThat(prefill.streamsCancelled()).isEqualTo(1);
        });
        assertThat(cluster.inferenceRequests("decode-0")).isEmpty();
        assertThat(metrics())
                .contains("gateway_prefill_request_fail_total{status=\"context_canceled\",status_code=\"499\"} 1.0")
                .contains("status=\"client_cancel\",status_code=\"499\"} 1.0");
    }

    @Test
    void clientLeavesBetweenTheLegs_decodeConnectionClosed() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd"));
        SimPod decode = cluster.simPod("decode-0");
        decode.setFaults(FaultConfig.none().withHangBeforeHeaders());
        try (RawStream stream = new RawStream(cluster.gateway().port(), CHAT, TestCluster.chat("between", 8, true))) {
            // The prefill answered and the decode has the request, but nothing reached the client yet.
            await().atMost(Duration.ofSeconds(5)).until(() -> decode.openStreams() == 1);
            assertThat(stream.poll()).isEmpty();
        }
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(decode.openStreams()).isZero();
            assertThat(decode.streamsCancelled()).isEqualTo(1);
        });
        assertThat(metrics())
                .contains("gateway_prefill_request_success_total{status=\"pd-prefill-request-success\",status_code=\"200\"} 1.0")
                .contains("status=\"client_cancel\",status_code=\"499\"} 1.0");
    }

    @Test
    void redisKilledAndRestartedUnderLoad_noRequestFails() throws Exception {
        redis = new RedisProcess();
        cluster = new TestCluster().prefill("prefill-0", "rs-0").decode("decode-0", "rs-0")
                .prefill("prefill-1", "rs-1").decode("decode-1", "rs-1")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_DECODE_SCORE_POLICY", "token_load",
                        "REDIS_HOST", "127.0.0.1", "REDIS_PORT", Integer.toString(redis.port)));
        AtomicBoolean loading = new AtomicBoolean(true);
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        List<CompletableFuture<Void>> clients = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            int client = c;
            clients.add(CompletableFuture.runAsync(() -> {
                for (int i = 0; loading.get(); i++) {
                    int status = send(TestCluster.chat("load " + client + " " + i, 4, i % 2 == 0));
                    statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                }
            }));
        }

        redis.kill();
        await().atMost(Duration.ofSeconds(5)).until(() -> metrics().contains("pd_gateway_redis_degraded 1.0"));
        redis.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> metrics().contains("pd_gateway_redis_degraded 0.0"));
        loading.set(false);
        CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)).get();

        assertThat(statuses.keySet()).as("every status seen under load").containsExactly(200);
        assertThat(statuses.get(200).get()).isGreaterThan(8);
    }

    private int send(String body) {
        try {
            return cluster.post(CHAT, body).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    @Test
    void podFileDeleted_lastGoodViewKept_thenFollowsItsReturn() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd"));
        Files.delete(cluster.podFile);
        // The poller sees the file gone (within half a second) and keeps serving on the view it had.
        await().during(Duration.ofMillis(1200)).atMost(Duration.ofSeconds(10)).until(
                () -> cluster.post(CHAT, TestCluster.chat("still here", 1, false)).statusCode() == 200);
        assertThat(cluster.get("/readyz").statusCode()).isEqualTo(200);
        assertThat(metrics()).contains("pd_gateway_discovery_pods 2.0");

        cluster.standard("standard-0");
        cluster.writePodFile();
        await().atMost(Duration.ofSeconds(3)).until(() -> metrics().contains("pd_gateway_discovery_pods 3.0"));
    }

    @Test
    void metricsEndpointNeverAnswers_requestsRouteOnTime_scrapesBoundedAndCounted() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0");
        // A black hole on the decode pod's address: it accepts the scrape's connection and never says a word.
        Set<NetSocket> held = ConcurrentHashMap.newKeySet();
        AtomicInteger accepted = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        blackHole = cluster.vertx.createNetServer().connectHandler(socket -> {
            accepted.incrementAndGet();
            held.add(socket);
            mostAtOnce.accumulateAndGet(held.size(), Math::max);
            socket.closeHandler(v -> held.remove(socket));
        });
        int port = blackHole.listen(0, cluster.simPod("decode-0").host()).await().actualPort();
        PodManifest.Entry decode = cluster.entry("decode-0");
        Map<String, String> labels = new LinkedHashMap<>(decode.labels());
        labels.put(SpecLabels.METRIC_PORT, Integer.toString(port));
        cluster.replaceEntry("decode-0", new PodManifest.Entry(decode.namespace(), decode.name(), labels,
                decode.annotations(), decode.podIp(), true));
        cluster.startGateway(Map.of("ROUTING_ALGORITHM", "pd"));
        long started = System.nanoTime();

        for (int i = 0; i < 10; i++) {
            assertThat(cluster.post(CHAT, TestCluster.chat("scrape " + i, 2, false)).statusCode()).isEqualTo(200);
        }
        assertThat(since(started)).as("ten requests, where waiting for the 1 s scrape timeout would take ten seconds")
                .isLessThan(Duration.ofSeconds(5));
        await().atMost(Duration.ofSeconds(5)).until(() -> metrics().contains(
                "pd_gateway_scrape_failures_total{namespace=\"default\",pod=\"decode-0\"}"));
        long seconds = Math.max(1, since(started).toSeconds() + 1);
        // One scrape in flight per pod, abandoned after its 1 s timeout: never a pile of open connections.
        assertThat(mostAtOnce.get()).as("connections held at once").isLessThanOrEqualTo(2);
        assertThat(accepted.get()).as("scrapes over " + seconds + " s").isLessThanOrEqualTo((int) seconds + 2);
    }

    @Test
    void burstOfEveryFault_twice_noFileDescriptorOrConnectionLeaks() throws Exception {
        assumeTrue(OpenFiles.countable(), "needs /proc/self/fd");
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .standard("standard-0");
        Map<String, String> env = new java.util.HashMap<>(SHORT_TIMEOUTS);
        env.put("AIBRIX_PROMPT_LENGTH_BUCKETING", "true");
        cluster.startGateway(env);
        // The first burst fills every connection pool to its high-water mark; a leak grows with the second.
        burst();
        cluster.assertQuiescent();
        int afterFirst = OpenFiles.count();
        burst();
        cluster.assertQuiescent();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(OpenFiles.count())
                .as("descriptors after the second burst (after the first: " + afterFirst + ")")
                .isLessThanOrEqualTo(afterFirst + FD_SLACK));
        for (String pod : new String[] {"prefill-0", "decode-0", "standard-0"}) {
            // At most the gateway's pool to the pod plus the decode's KV fetches: bounded by the concurrency.
            assertThat(cluster.simPod(pod).openConnections()).as("connections open at " + pod)
                    .isLessThanOrEqualTo(2 * BURST_CONCURRENCY + 2);
        }
    }

    /** Descriptors that may come and go between two identical bursts without a leak: a few pooled sockets. */
    private static final int FD_SLACK = 8;
    private static final int BURST_CONCURRENCY = 4;
    private static final int REQUESTS_PER_FAULT = 8;

    /** Every fault in turn, {@link #REQUESTS_PER_FAULT} requests each, {@link #BURST_CONCURRENCY} at a time. */
    private void burst() throws Exception {
        SimPod prefill = cluster.simPod("prefill-0");
        SimPod decode = cluster.simPod("decode-0");
        List<Runnable> faults = List.of(
                () -> prefill.setFaults(FaultConfig.none().withErrors(1.0, 503)), // retried on the standard pod
                () -> prefill.setFaults(FaultConfig.none().withDropAfterTokens(0)), // reset: retried too
                () -> prefill.setFaults(FaultConfig.none().withHangBeforeHeaders()), // 504 after 1 s
                () -> decode.setFaults(FaultConfig.none().withDropAfterTokens(2)), // cut short
                () -> decode.setFaults(FaultConfig.none().withHangAfterTokens(0)), // watchdog 504
                () -> decode.setFaults(FaultConfig.none().withHangAfterTokens(2))); // idle watchdog cuts it
        for (Runnable fault : faults) {
            prefill.setFaults(FaultConfig.none());
            decode.setFaults(FaultConfig.none());
            fault.run();
            wave(false);
        }
        decode.setFaults(FaultConfig.none().withHangAfterTokens(2));
        wave(true); // clients that leave mid-stream
        decode.setFaults(FaultConfig.none());
    }

    /** One wave of requests; each must end within the timeouts plus one second. */
    private void wave(boolean clientsLeave) throws Exception {
        for (int round = 0; round < REQUESTS_PER_FAULT / BURST_CONCURRENCY; round++) {
            List<CompletableFuture<Duration>> inFlight = new ArrayList<>();
            for (int c = 0; c < BURST_CONCURRENCY; c++) {
                String body = TestCluster.chat("burst " + round + "-" + c, 20, true);
                inFlight.add(CompletableFuture.supplyAsync(() -> clientsLeave ? leaveMidStream(body) : timed(body)));
            }
            for (CompletableFuture<Duration> request : inFlight) {
                assertThat(request.get()).as("a request's wait").isLessThan(TIMEOUT_PLUS_ONE.plusSeconds(1));
            }
        }
    }

    private Duration timed(String body) {
        long started = System.nanoTime();
        try {
            cluster.post(CHAT, body);
        } catch (Exception cutShort) {
            // a stream cut short ends in an I/O error at the client: answered all the same
        }
        return since(started);
    }

    private Duration leaveMidStream(String body) {
        long started = System.nanoTime();
        try (RawStream stream = new RawStream(cluster.gateway().port(), CHAT, body)) {
            await().atMost(Duration.ofSeconds(5)).until(stream::contentEvents, n -> n >= 1);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return since(started);
    }
}
