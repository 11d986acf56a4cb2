package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimRole;
import io.pdgateway.sim.cluster.PodManifest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * BENCHMARKS.md, "Dead pods and the scraper at scale": a pod file of {@code deadPods.total} pods (default 2,000) of
 * which all but two live pairs refuse connections, served by a real {@code pd-gateway serve} process. Measures its
 * start-up, how long until every dead pod has been seen to fail (ejected), the share of requests then served
 * (eight clients at once), and the gateway process's idle CPU with that file. With {@code deadPods.live=N} every pod
 * but the dead ones is a live simulated pod instead (the scraper's cost with N pods to scrape). Not part of the suite
 * (its name is not *IT): run it with
 * {@code mvn -B -o verify -pl gateway-server -am -Dit.test=DeadPodsMeasurement -Dtest=NONE
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false}.
 */
class DeadPodsMeasurement {
    private static final Pattern EJECTED = Pattern.compile("(?m)^pd_gateway_outlier_ejected_pods (\\S+)$");
    private static final long CLOCK_TICKS_PER_SECOND = 100; // Linux USER_HZ

    @Test
    void twoLivePairsAmongAllDeadPods_servedOnceSeen_andIdleCpu() throws Exception {
        int total = Integer.getInteger("deadPods.total", 2000);
        int liveStandalone = Integer.getInteger("deadPods.live", 0);
        int requests = Integer.getInteger("deadPods.requests", 500);
        try (TestCluster cluster = new TestCluster()) {
            cluster.prefill("prefill-a", "live-a").decode("decode-a", "live-a")
                    .prefill("prefill-b", "live-b").decode("decode-b", "live-b");
            for (int i = 0; i < liveStandalone; i++) {
                cluster.pod("live-" + i, SimRole.DECODE, "idle-" + i, Map.of(), null); // scraped, never complete
            }
            int dead = total - 4 - liveStandalone;
            for (int i = 0; i < dead; i++) {
                String role = i % 2 == 0 ? "prefill" : "decode";
                cluster.replaceEntry("dead-" + i, deadEntry("dead-" + i, "dead-" + i / 2, role, i));
            }
            cluster.writePodFile();
            long startedAt = System.nanoTime();
            try (GatewayProcess gateway = GatewayProcess.serve(Map.of("ROUTING_ALGORITHM", "pd"),
                    List.of("--pods", cluster.podFile.toString()))) {
                long listeningMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAt);
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
                URI metrics = URI.create("http://127.0.0.1:" + gateway.port() + "/metrics");
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                        .until(() -> ejected(http, metrics), n -> n >= dead);
                long seenMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAt);

                int served = serve(http, gateway.port(), requests);

                Thread.sleep(5_000); // let the requests' after-effects settle before the idle window
                double idleCores = cpuCores(gateway.pid(), Duration.ofSeconds(30));
                System.out.printf("dead pods: %d pods in the file (%d dead, %d live), listening after %d ms, every dead"
                        + " pod ejected after %d ms, %d of %d requests served (%.2f %%), idle CPU %.3f cores%n",
                        total, dead, total - dead, listeningMs, seenMs, served, requests, 100.0 * served / requests,
                        idleCores);
                assertThat(served).as("served of " + requests).isGreaterThanOrEqualTo((int) Math.ceil(0.99 * requests));
            }
        }
    }

    private static PodManifest.Entry deadEntry(String name, String roleset, String role, int i) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(SpecLabels.MODEL_NAME, TestCluster.MODEL);
        labels.put(SpecLabels.PORT, "1");
        labels.put(SpecLabels.ENGINE, "vllm");
        labels.put(SpecLabels.ROLE_NAME, role);
        labels.put(SpecLabels.ROLESET_NAME, roleset);
        // 127.0.240.0/20: loopback addresses nothing listens on, clear of the simulated pods' 127.0.0-9.x.
        return new PodManifest.Entry("default", name, labels, Map.of(), "127.0." + (240 + i / 250) + "." + (2 + i % 250),
                true);
    }

    private static double ejected(HttpClient http, URI metrics) throws Exception {
        String body = http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = EJECTED.matcher(body);
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }

    private static int serve(HttpClient http, int port, int requests) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<CompletableFuture<Boolean>> all = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            String body = TestCluster.chat("dead pods " + i, 16, false);
            all.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                            + "/v1/chat/completions")).timeout(Duration.ofSeconds(30))
                            .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(), HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
                } catch (Exception e) {
                    return false;
                }
            }, pool));
        }
        int served = 0;
        for (CompletableFuture<Boolean> one : all) {
            served += one.get(5, TimeUnit.MINUTES) ? 1 : 0;
        }
        pool.shutdown();
        return served;
    }

    /** The process's CPU over {@code window}, in cores (user + system time from /proc/PID/stat). */
    private static double cpuCores(long pid, Duration window) throws Exception {
        long before = cpuTicks(pid);
        long start = System.nanoTime();
        Thread.sleep(window.toMillis()); // the measurement window itself, not a synchronisation
        long ticks = cpuTicks(pid) - before;
        double seconds = (System.nanoTime() - start) / 1e9;
        return ticks / (double) CLOCK_TICKS_PER_SECOND / seconds;
    }

    private static long cpuTicks(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15)
    }
}
