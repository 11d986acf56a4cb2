package io.pdgateway.bench.validate;

import io.pdgateway.bench.compare.PrefixCacheStats;
import io.pdgateway.bench.load.Endpoint;
import io.pdgateway.bench.load.StreamingChatClient;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.routingsim.workload.SimRequest;
import io.pdgateway.server.GatewayServer;
import io.pdgateway.server.discovery.PodFileDiscovery;
import io.pdgateway.sim.cluster.LoopbackCluster;
import io.pdgateway.sim.cluster.LoopbackClusterShape;
import io.pdgateway.workload.run.RequestResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real thing on loopback: engine-sim pods in the simulated cluster's shape, the real gateway in front of them, and
 * an open-loop streaming client that sends each request at its arrival time and times what comes back. Afterwards the
 * prefill and standard pods' own prefix-cache counters are scraped from their {@code /metrics}, as a user would read
 * them.
 */
final class LoopbackRun {
    /** Requests that stall this long count as errors rather than hanging the run. */
    static final long REQUEST_TIMEOUT_MS = 120_000;
    /** Short requests sent before the replay, so JIT compilation and connection set-up are not measured. */
    static final int WARMUP_REQUESTS = 20;

    private LoopbackRun() {}

    /**
     * The request results, aligned with the requests, and the serving engines' prefix-cache counters: the tokens each
     * prefilling pod was asked for, and the tokens all of them found.
     */
    record Outcome(List<RequestResult> results, long[] queriedTokensByPod, long prefixHitTokens) {
        double prefixHitRate() {
            long queried = Arrays.stream(queriedTokensByPod).sum();
            return queried == 0 ? 0 : (double) prefixHitTokens / queried;
        }
    }

    static Outcome run(List<SimRequest> requests, GatewaySettings settings, LoopbackClusterShape shape, int blockTokens)
            throws Exception {
        double timeScale = shape.timeScale();
        Vertx vertx = Vertx.vertx();
        Path dir = Files.createTempDirectory("routing-sim-validate");
        Path podFile = dir.resolve("pods.yaml");
        LoopbackCluster cluster = LoopbackCluster.start(vertx, shape, podFile).await();
        PodFileDiscovery discovery = new PodFileDiscovery(vertx, podFile);
        discovery.start();
        GatewayServer gateway = GatewayServer.start(vertx, discovery, settings, "127.0.0.1", 0, 42).await();
        StreamingChatClient client = StreamingChatClient.open(vertx, Endpoint.local("127.0.0.1", gateway.port()),
                LoopbackCluster.MODEL, java.util.Map.of());
        try {
            List<Future<RequestResult>> warmup = new ArrayList<>();
            for (int i = 0; i < WARMUP_REQUESTS; i++) {
                warmup.add(send(client, ValidationPrompts.unshared(64, i), 64, 4));
            }
            Future.all(warmup).await();
            // Warm-up prompts share nothing with the run, but they are counted: read the counters before and after.
            List<PrefixCacheStats> before = prefixCounters(cluster);
            List<RequestResult> results = replay(vertx, client, requests, timeScale, blockTokens).await();
            List<PrefixCacheStats> after = prefixCounters(cluster);
            long[] byPod = new long[after.size()];
            long hits = 0;
            for (int i = 0; i < byPod.length; i++) {
                byPod[i] = after.get(i).queriedTokens() - before.get(i).queriedTokens();
                hits += after.get(i).hitTokens() - before.get(i).hitTokens();
            }
            return new Outcome(results, byPod, hits);
        } finally {
            client.close().await();
            gateway.close().await();
            discovery.close();
            cluster.close().await();
            vertx.close().await();
        }
    }

    private static Future<List<RequestResult>> replay(Vertx vertx, StreamingChatClient client, List<SimRequest> requests,
            double timeScale, int blockTokens) {
        RequestResult[] results = new RequestResult[requests.size()];
        Promise<List<RequestResult>> done = Promise.promise();
        if (requests.isEmpty()) {
            done.complete(List.of());
            return done.future();
        }
        AtomicInteger remaining = new AtomicInteger(requests.size());
        for (SimRequest r : requests) {
            long delay = Math.max(1, Math.round(r.arrivalNanos() / 1e6 * timeScale));
            vertx.setTimer(delay, id -> send(client, ValidationPrompts.text(r, blockTokens), r.promptTokens(),
                    r.outputTokens()).onComplete(ar -> {
                        results[r.index()] = ar.succeeded() ? ar.result()
                                : RequestResult.failure(0, 0, r.promptTokens(), String.valueOf(ar.cause()));
                        if (remaining.decrementAndGet() == 0) {
                            done.complete(List.of(results));
                        }
                    }));
        }
        return done.future();
    }

    /** The prefix-cache counters of each pod that prefills (prefill and standard pods), in the cluster's order. */
    private static List<PrefixCacheStats> prefixCounters(LoopbackCluster cluster) throws Exception {
        List<PrefixCacheStats> counters = new ArrayList<>();
        HttpClient http = PrefixCacheStats.client();
        for (int i = 0; i < cluster.sims().size(); i++) {
            if (!SpecLabels.ROLE_DECODE.equals(cluster.entries().get(i).labels().get(SpecLabels.ROLE_NAME))) {
                counters.add(PrefixCacheStats.read(http, cluster.sims().get(i)));
            }
        }
        return counters;
    }

    private static Future<RequestResult> send(StreamingChatClient client, String prompt, int promptTokens, int maxTokens) {
        return client.send(client.body(prompt, maxTokens), promptTokens, null, REQUEST_TIMEOUT_MS, 0, 0, gap -> { });
    }
}
