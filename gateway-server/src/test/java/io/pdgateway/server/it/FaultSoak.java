package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.server.GatewayServer;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The soak: {@code soak.seconds} (default 600) of mixed load through two gateway replicas sharing Redis, while faults
 * are injected at random (seeded by {@code soak.seed}). Not part of the suite (its name is not *IT); run it with
 * {@code bin/soak}. Two models keep the bookkeeping exact:
 * <ul>
 *   <li>{@value #FAULTY}: two vLLM prefill/decode pairs and a standard pod whose faults change every few seconds
 *       (errors of every status, hangs before headers or after N tokens, drops after N tokens). Its clients never
 *       leave, and each attempt has at most one faulted leg (the decode is sent only after the prefill answered), so
 *       every injected fault either was retried on other pods or is exactly one client error: client errors must
 *       equal faults injected minus prefill retries, and equal the failures the gateways recorded;</li>
 *   <li>{@value #CLEAN}: a clean pair whose clients walk away from half their streams: every other request succeeds,
 *       and the gateways record exactly the walk-aways, as client_cancel.</li>
 * </ul>
 * Further, {@value #STANDARD} is served by one standard pod under the same chaos and counted with {@value #FAULTY}
 * (its hangs end at the PD_GATEWAY_UPSTREAM_* bounds), and a client of {@value #SLOW} opens long streams it never
 * reads: each must end as client_slow, none as a decode watchdog. Meanwhile Redis is killed and restarted, the pod
 * file broken and mended, and a pair of the faulty model removed from it and re-created under load, which must fail
 * nothing. At the end
 * every ledger, tracker and open stream is back to zero (TestCluster), the file descriptors are where they were
 * after the first minute, no pod holds more connections than the clients explain, and no request waited longer
 * than the timeouts allow.
 */
class FaultSoak {
    static final String FAULTY = "soak-faulty";
    static final String CLEAN = "soak-clean";
    static final String STANDARD = "soak-standard";
    static final String SLOW = "soak-slow";
    private static final String CHAT = "/v1/chat/completions";
    /**
     * Short timeouts, so that hung legs are cut quickly and many faults fit in the run, yet far above anything a
     * healthy simulated leg takes even on a busy machine: a timeout without a fault would break the bookkeeping.
     */
    private static final Map<String, String> ENV = Map.ofEntries(Map.entry("ROUTING_ALGORITHM", "pd"),
            Map.entry("AIBRIX_PROMPT_LENGTH_BUCKETING", "true"), Map.entry("AIBRIX_PREFILL_REQUEST_TIMEOUT", "3"),
            Map.entry("AIBRIX_DECODE_FIRST_RESPONSE_TIMEOUT", "3"), Map.entry("AIBRIX_DECODE_RESPONSE_TIMEOUT", "5"),
            Map.entry("AIBRIX_DECODE_STREAM_IDLE_TIMEOUT", "3"), Map.entry("AIBRIX_DECODE_SCORE_POLICY", "token_load"),
            Map.entry("PD_GATEWAY_UPSTREAM_FIRST_BYTE_TIMEOUT", "3"),
            Map.entry("PD_GATEWAY_UPSTREAM_STREAM_IDLE_TIMEOUT", "3"),
            Map.entry("PD_GATEWAY_UPSTREAM_RESPONSE_TIMEOUT", "5"),
            Map.entry("PD_GATEWAY_CLIENT_WRITE_STALL_TIMEOUT", "2"));
    /** No request may take longer: the longest timeout (5 s), a retry's fast first failure, generation, 1 s slack. */
    private static final Duration LONGEST_WAIT = Duration.ofSeconds(10);
    private static final int FAULTY_CLIENTS = 4;
    private static final int CLEAN_CLIENTS = 2;
    private static final int SCRAPERS = 2; // the gateway replicas, each scraping every pod on one kept-alive connection
    private static final long CHAOS_INTERVAL_MS = 4_000;
    private static final long REDIS_OUTAGE_EVERY_MS = 90_000;
    private static final long POD_FILE_BREAK_EVERY_MS = 120_000;
    /** How often a pair of the faulty model leaves the pod file for a while and comes back, under load. */
    private static final long POD_CHURN_EVERY_MS = 30_000;
    /** Descriptors that may differ between the first minute and the end without a leak: pooled sockets coming and going. */
    private static final int FD_SLACK = 24;

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
    private final AtomicLong longestNanos = new AtomicLong();
    private final List<Throwable> harnessErrors = new CopyOnWriteArrayList<>();

    @Test
    void mixedLoadWithRandomFaults_nothingLeaks_errorsMatchFaults() throws Exception {
        long seconds = Long.getLong("soak.seconds", 600);
        long seed = Long.getLong("soak.seed", 1);
        SplittableRandom chaos = new SplittableRandom(seed);
        try (RedisProcess redis = new RedisProcess(); TestCluster cluster = cluster(redis)) {
            GatewayServer replica = cluster.startReplica(env(redis));
            List<SimPod> faulty = Stream.of("f-prefill-0", "f-decode-0", "f-prefill-1", "f-decode-1", "f-standard",
                    "s-standard").map(cluster::simPod).toList();
            ExecutorService clients = Executors.newFixedThreadPool(FAULTY_CLIENTS + CLEAN_CLIENTS + 2);
            int[] ports = {cluster.gateway().port(), replica.port()};
            for (int c = 0; c < FAULTY_CLIENTS; c++) {
                long clientSeed = seed * 31 + c;
                clients.submit(() -> faultyClient(cluster, ports, new SplittableRandom(clientSeed), FAULTY));
            }
            // A model served by one standard pod only, under the same chaos: its hangs must end at the gateway's bounds.
            clients.submit(() -> faultyClient(cluster, ports, new SplittableRandom(seed * 41), STANDARD));
            // Clients that stop reading their streams: each must end as client_slow, never blamed on a pod.
            clients.submit(() -> slowReader(cluster, replica, ports, new SplittableRandom(seed * 43)));
            for (int c = 0; c < CLEAN_CLIENTS; c++) {
                long clientSeed = seed * 37 + c;
                clients.submit(() -> cleanClient(cluster, ports, new SplittableRandom(clientSeed)));
            }
            long start = System.nanoTime();
            long end = start + TimeUnit.SECONDS.toNanos(seconds);
            long nextRedisOutage = start + TimeUnit.MILLISECONDS.toNanos(REDIS_OUTAGE_EVERY_MS / 3);
            long nextPodFileBreak = start + TimeUnit.MILLISECONDS.toNanos(POD_FILE_BREAK_EVERY_MS / 2);
            long nextPodChurn = start + TimeUnit.MILLISECONDS.toNanos(POD_CHURN_EVERY_MS / 2);
            Integer fdsAfterWarmUp = null;
            while (System.nanoTime() < end && harnessErrors.isEmpty()) {
                for (SimPod pod : faulty) {
                    pod.setFaults(randomFaults(chaos));
                }
                if (System.nanoTime() > nextRedisOutage) {
                    redis.kill();
                    await().atMost(Duration.ofSeconds(10)).until(() -> cluster.gateway().metrics().scrape()
                            .contains("pd_gateway_redis_degraded 1.0"));
                    outcomes.computeIfAbsent("redis outages", k -> new AtomicInteger()).incrementAndGet();
                    redis.start();
                    nextRedisOutage += TimeUnit.MILLISECONDS.toNanos(REDIS_OUTAGE_EVERY_MS);
                }
                if (System.nanoTime() > nextPodFileBreak) {
                    byte[] good = Files.readAllBytes(cluster.podFile);
                    Files.writeString(cluster.podFile, "items: [ {metadata: ");
                    Thread.sleep(CHAOS_INTERVAL_MS / 2); // the broken file must stay long enough to be read
                    Files.write(cluster.podFile, good);
                    outcomes.computeIfAbsent("pod file breaks", k -> new AtomicInteger()).incrementAndGet();
                    nextPodFileBreak += TimeUnit.MILLISECONDS.toNanos(POD_FILE_BREAK_EVERY_MS);
                }
                if (System.nanoTime() > nextPodChurn) {
                    // The pair leaves discovery with requests in flight on it, then comes back under the same names:
                    // its old charges release into the void, the new pods start from zero.
                    var prefill = cluster.entry("f-prefill-1");
                    var decode = cluster.entry("f-decode-1");
                    cluster.replaceEntry("f-prefill-1", null);
                    cluster.replaceEntry("f-decode-1", null);
                    Thread.sleep(CHAOS_INTERVAL_MS / 2); // gone long enough to be read as gone
                    cluster.replaceEntry("f-prefill-1", prefill);
                    cluster.replaceEntry("f-decode-1", decode);
                    outcomes.computeIfAbsent("pod pair removed and re-created", k -> new AtomicInteger())
                            .incrementAndGet();
                    nextPodChurn += TimeUnit.MILLISECONDS.toNanos(POD_CHURN_EVERY_MS);
                }
                if (fdsAfterWarmUp == null && System.nanoTime() - start > TimeUnit.SECONDS.toNanos(Math.min(60,
                        seconds / 4))) {
                    fdsAfterWarmUp = OpenFiles.count();
                }
                Thread.sleep(CHAOS_INTERVAL_MS); // the chaos pace, not a synchronisation
            }
            faulty.forEach(pod -> pod.setFaults(FaultConfig.none()));
            running.set(false);
            clients.shutdown();
            assertThat(clients.awaitTermination(30, TimeUnit.SECONDS)).as("clients stopped").isTrue();
            assertThat(harnessErrors).as("harness errors").isEmpty();
            cluster.assertQuiescent();
            int injected = faulty.stream().mapToInt(SimPod::faultsInjected).sum();
            int retries = (int) sum(cluster.gateway(), replica, "pd_gateway_prefill_retries", null, null);
            int faultyErrors = count("faulty error");
            int recordedFaulty = (int) (sum(cluster.gateway(), replica, "gateway_request_model_fail", "model", FAULTY)
                    + sum(cluster.gateway(), replica, "gateway_request_model_fail", "model", STANDARD));
            int recordedSlow = (int) sum(cluster.gateway(), replica, "gateway_request_model_fail", "model", SLOW);
            int slowRecorded = (int) sum(cluster.gateway(), replica, "gateway_request_model_fail", "status",
                    "client_slow");
            int watchdogOnSlow = (int) sum2(cluster.gateway(), replica, "gateway_request_model_fail", "model", SLOW,
                    "status", "pd_decode_watchdog");
            int recordedClean = (int) sum(cluster.gateway(), replica, "gateway_request_model_fail", "model", CLEAN);
            int cancelledClean = (int) sum(cluster.gateway(), replica, "gateway_request_model_fail", "status",
                    "client_cancel");
            Integer baseline = fdsAfterWarmUp;
            int fdsAtEnd = await().atMost(Duration.ofSeconds(20)).until(OpenFiles::count,
                    n -> baseline == null || n <= baseline + FD_SLACK);
            report(seconds, seed, faulty, injected, retries, recordedFaulty, recordedClean, baseline, fdsAtEnd);

            assertThat(count("faulty ok") + faultyErrors).as("faulty-model requests").isPositive();
            assertThat(faultyErrors).as("client errors = faults injected - prefill retries")
                    .isEqualTo(injected - retries);
            assertThat(recordedFaulty).as("failures the gateways recorded = client errors").isEqualTo(faultyErrors);
            assertThat(count("clean error")).as("clean-model requests that failed").isZero();
            assertThat(recordedClean).as("clean-model failures = walk-aways").isEqualTo(count("clean walked away"));
            assertThat(cancelledClean).isEqualTo(count("clean walked away"));
            assertThat(count("slow readers closed")).as("slow readers").isPositive();
            assertThat(slowRecorded).as("client_slow = slow readers closed").isEqualTo(count("slow readers closed"));
            assertThat(recordedSlow).as("slow-model failures = slow readers").isEqualTo(count("slow readers closed"));
            assertThat(watchdogOnSlow).as("slow readers blamed on the decode pod").isZero();
            assertThat(Duration.ofNanos(longestNanos.get())).as("longest wait").isLessThan(LONGEST_WAIT);
            // Kept-alive connections (legs, simulated KV fetches) close when idle: only the scrapers' may stay open.
            for (String pod : new String[] {"f-prefill-0", "f-decode-0", "f-prefill-1", "f-decode-1", "f-standard",
                    "s-standard", "c-prefill", "c-decode", "slow-prefill", "slow-decode"}) {
                await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(cluster.simPod(pod)
                        .openConnections()).as("connections open at " + pod).isLessThanOrEqualTo(SCRAPERS));
            }
        }
    }

    private static Map<String, String> env(RedisProcess redis) {
        Map<String, String> env = new java.util.HashMap<>(ENV);
        env.put("REDIS_HOST", "127.0.0.1");
        env.put("REDIS_PORT", Integer.toString(redis.port));
        return env;
    }

    private static TestCluster cluster(RedisProcess redis) throws Exception {
        TestCluster cluster = new TestCluster();
        Map<String, String> faultyModel = Map.of(SpecLabels.MODEL_NAME, FAULTY);
        cluster.withSimOptions(b -> b.modelName(FAULTY))
                .pod("f-prefill-0", SimRole.PREFILL, "rs-0", faultyModel, null)
                .pod("f-decode-0", SimRole.DECODE, "rs-0", faultyModel, null)
                .pod("f-prefill-1", SimRole.PREFILL, "rs-1", faultyModel, null)
                .pod("f-decode-1", SimRole.DECODE, "rs-1", faultyModel, null)
                .pod("f-standard", SimRole.COMBINED, null, faultyModel,
                        "{\"profiles\":{\"default\":{\"routingConfig\":{\"combined\":true}}}}");
        // Ten times slower than the faulty pods, so a long stream is still running when its client walks away.
        Map<String, String> cleanModel = Map.of(SpecLabels.MODEL_NAME, CLEAN);
        cluster.withSimOptions(b -> b.modelName(CLEAN).timeScale(TestCluster.TIME_SCALE * 10))
                .pod("c-prefill", SimRole.PREFILL, "rs-c", cleanModel, null)
                .pod("c-decode", SimRole.DECODE, "rs-c", cleanModel, null);
        Map<String, String> standardModel = Map.of(SpecLabels.MODEL_NAME, STANDARD);
        cluster.withSimOptions(b -> b.modelName(STANDARD))
                .pod("s-standard", SimRole.COMBINED, null, standardModel,
                        "{\"profiles\":{\"default\":{\"routingConfig\":{\"combined\":true}}}}");
        Map<String, String> slowModel = Map.of(SpecLabels.MODEL_NAME, SLOW);
        cluster.withSimOptions(b -> b.modelName(SLOW))
                .pod("slow-prefill", SimRole.PREFILL, "rs-s", slowModel, null)
                .pod("slow-decode", SimRole.DECODE, "rs-s", slowModel, null);
        return cluster.startGateway(env(redis));
    }

    /** The chaos menu: mostly no fault, then every kind the simulator injects, with random parameters. */
    private static FaultConfig randomFaults(SplittableRandom random) {
        int pick = random.nextInt(100);
        FaultConfig none = FaultConfig.none();
        if (pick < 40) {
            return none;
        } else if (pick < 50) {
            return none.withErrors(0.3, 503);
        } else if (pick < 58) {
            return none.withErrors(0.3, 502);
        } else if (pick < 63) {
            return none.withErrors(0.3, 504);
        } else if (pick < 70) {
            return none.withErrors(0.2, 500);
        } else if (pick < 74) {
            return none.withErrors(0.2, 429);
        } else if (pick < 80) {
            return none.withHangBeforeHeaders();
        } else if (pick < 90) {
            return none.withHangAfterTokens(random.nextInt(0, 8));
        }
        return none.withDropAfterTokens(random.nextInt(0, 8));
    }

    private void faultyClient(TestCluster cluster, int[] ports, SplittableRandom random, String model) {
        while (running.get()) {
            boolean stream = random.nextInt(10) < 6;
            String body = "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"soak "
                    + random.nextInt(1_000_000) + " " + "word ".repeat(random.nextInt(1, 200)) + "\"}],\"max_tokens\":"
                    + random.nextInt(4, 48) + ",\"stream\":" + stream + "}";
            long started = System.nanoTime();
            boolean ok;
            try {
                HttpResponse<String> response = send(cluster, ports[random.nextInt(ports.length)], body);
                ok = response.statusCode() == 200 && (stream ? response.body().endsWith("data: [DONE]\n\n")
                        && !response.body().contains("\"error\"") : response.body().contains("\"choices\""));
            } catch (java.io.IOException e) {
                ok = false; // a stream cut short ends in a broken connection
            } catch (Exception e) {
                harnessErrors.add(e);
                return;
            }
            longestNanos.accumulateAndGet(System.nanoTime() - started, Math::max);
            outcomes.computeIfAbsent(ok ? "faulty ok" : "faulty error", k -> new AtomicInteger()).incrementAndGet();
        }
    }

    private void cleanClient(TestCluster cluster, int[] ports, SplittableRandom random) {
        while (running.get()) {
            int port = ports[random.nextInt(ports.length)];
            try {
                if (random.nextBoolean()) {
                    String body = "{\"model\":\"" + CLEAN + "\",\"messages\":[{\"role\":\"user\",\"content\":\"walk "
                            + random.nextInt() + "\"}],\"max_tokens\":5000,\"stream\":true}";
                    try (RawStream stream = new RawStream(port, CHAT, body)) {
                        await().atMost(Duration.ofSeconds(10)).until(stream::contentEvents, n -> n >= 1);
                    }
                    outcomes.computeIfAbsent("clean walked away", k -> new AtomicInteger()).incrementAndGet();
                } else {
                    String body = "{\"model\":\"" + CLEAN + "\",\"messages\":[{\"role\":\"user\",\"content\":\"stay "
                            + random.nextInt() + "\"}],\"max_tokens\":8,\"stream\":" + random.nextBoolean() + "}";
                    HttpResponse<String> response = send(cluster, port, body);
                    boolean ok = response.statusCode() == 200 && !response.body().contains("\"error\"");
                    outcomes.computeIfAbsent(ok ? "clean ok" : "clean error", k -> new AtomicInteger())
                            .incrementAndGet();
                }
            } catch (Exception e) {
                harnessErrors.add(e);
                return;
            }
        }
    }

    /**
     * Opens a long stream with a small receive window and never reads it; waits until a gateway closes it as
     * client_slow (PD_GATEWAY_CLIENT_WRITE_STALL_TIMEOUT), then does it again.
     */
    private void slowReader(TestCluster cluster, GatewayServer replica, int[] ports, SplittableRandom random) {
        byte[] body = ("{\"model\":\"" + SLOW + "\",\"messages\":[{\"role\":\"user\",\"content\":\"never read "
                + random.nextInt() + "\"}],\"max_tokens\":20000,\"stream\":true}").getBytes(StandardCharsets.UTF_8);
        while (running.get()) {
            double before = sum(cluster.gateway(), replica, "gateway_request_model_fail", "status", "client_slow");
            try (java.net.Socket socket = new java.net.Socket()) {
                socket.setReceiveBufferSize(1024);
                socket.connect(new java.net.InetSocketAddress("127.0.0.1", ports[random.nextInt(ports.length)]));
                var out = socket.getOutputStream();
                out.write(("POST " + CHAT + " HTTP/1.1\r\nHost: soak\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
                await().atMost(Duration.ofSeconds(30)).until(() -> sum(cluster.gateway(), replica,
                        "gateway_request_model_fail", "status", "client_slow") > before);
                outcomes.computeIfAbsent("slow readers closed", k -> new AtomicInteger()).incrementAndGet();
            } catch (Exception e) {
                harnessErrors.add(e);
                return;
            }
            try {
                // The pace of slow readers (about one every six seconds), not a synchronisation: each one makes its
                // decode pod generate a long answer at full speed, load the other models' timeouts must not feel.
                Thread.sleep(CHAOS_INTERVAL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** A counter summed over both replicas, only the series with two given tag values. */
    private static double sum2(GatewayServer a, GatewayServer b, String name, String tag1, String value1, String tag2,
            String value2) {
        double total = 0;
        for (GatewayServer gateway : new GatewayServer[] {a, b}) {
            for (Counter counter : gateway.metrics().registry().find(name).tag(tag1, value1).tag(tag2, value2)
                    .counters()) {
                total += counter.count();
            }
        }
        return total;
    }

    private static HttpResponse<String> send(TestCluster cluster, int port, String body) throws Exception {
        return cluster.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + CHAT))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private int count(String outcome) {
        AtomicInteger n = outcomes.get(outcome);
        return n == null ? 0 : n.get();
    }

    /** A counter summed over both replicas, optionally only the series with one tag value. */
    private static double sum(GatewayServer a, GatewayServer b, String name, String tag, String value) {
        double total = 0;
        for (GatewayServer gateway : new GatewayServer[] {a, b}) {
            var search = gateway.metrics().registry().find(name);
            if (tag != null) {
                search = search.tag(tag, value);
            }
            for (Counter counter : search.counters()) {
                total += counter.count();
            }
        }
        return total;
    }

    private void report(long seconds, long seed, List<SimPod> faulty, int injected, int retries, int recordedFaulty,
            int recordedClean, Integer fdsAfterWarmUp, int fdsAtEnd) {
        List<String> lines = new ArrayList<>();
        lines.add("soak: " + seconds + " s, seed " + seed);
        outcomes.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> lines.add("  " + e.getKey() + ": " + e.getValue().get()));
        lines.add("  faults injected: " + injected + " (errors " + faulty.stream().mapToInt(SimPod::errorsInjected).sum()
                + ", hangs " + faulty.stream().mapToInt(SimPod::hangsInjected).sum() + ", drops "
                + faulty.stream().mapToInt(SimPod::connectionsDropped).sum() + ")");
        lines.add("  prefill retries: " + retries + "; failures recorded: " + FAULTY + " " + recordedFaulty + ", "
                + CLEAN + " " + recordedClean);
        lines.add("  longest wait: " + Duration.ofNanos(longestNanos.get()).toMillis() + " ms; file descriptors: "
                + fdsAfterWarmUp + " after warm-up, " + fdsAtEnd + " at the end");
        System.out.println(String.join(System.lineSeparator(), lines));
    }
}
