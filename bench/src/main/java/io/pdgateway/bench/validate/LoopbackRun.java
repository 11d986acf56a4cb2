package io.pdgateway.bench.validate;

import io.pdgateway.bench.load.Endpoint;
import io.pdgateway.bench.load.StreamingChatClient;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.routingsim.workload.SimRequest;
import io.pdgateway.server.GatewayServer;
import io.pdgateway.sim.cluster.LoopbackClusterShape;
import io.pdgateway.sim.cluster.LoopbackCluster;
import io.pdgateway.server.discovery.PodFileDiscovery;
import io.pdgateway.workload.run.RequestResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real thing on loopback: the demo's cluster of engine-sim pods (two vLLM prefill/decode rolesets for prompts up
 * to 2,048 tokens and one standard pod for longer ones, as {@code bin/pd-gateway demo}), the real gateway in front of
 * it, and an open-loop streaming client that sends each request at its arrival time and times what comes back.
 */
final class LoopbackRun {
    /** Requests that stall this long count as errors rather than hanging the run. */
    static final long REQUEST_TIMEOUT_MS = 120_000;
    /** Short requests sent before the replay, so JIT compilation and connection set-up are not measured. */
    static final int WARMUP_REQUESTS = 20;

    private LoopbackRun() {}

    /** Results aligned with {@code requests}. */
    static List<RequestResult> run(List<SimRequest> requests, GatewaySettings settings, double timeScale)
            throws Exception {
        Vertx vertx = Vertx.vertx();
        Path dir = Files.createTempDirectory("routing-sim-validate");
        Path podFile = dir.resolve("pods.yaml");
        LoopbackCluster cluster = LoopbackCluster.start(vertx, LoopbackClusterShape.demo(timeScale), podFile).await();
        PodFileDiscovery discovery = new PodFileDiscovery(vertx, podFile);
        discovery.start();
        GatewayServer gateway = GatewayServer.start(vertx, discovery, settings, "127.0.0.1", 0, 42).await();
        StreamingChatClient client = StreamingChatClient.open(vertx, Endpoint.local("127.0.0.1", gateway.port()),
                LoopbackCluster.MODEL, java.util.Map.of());
        try {
            List<Future<RequestResult>> warmup = new ArrayList<>();
            for (int i = 0; i < WARMUP_REQUESTS; i++) {
                warmup.add(send(client, ValidationPrompts.text(64, 1_000_000 + i), 64, 4));
            }
            Future.all(warmup).await();
            return replay(vertx, client, requests, timeScale).await();
        } finally {
            client.close().await();
            gateway.close().await();
            discovery.close();
            cluster.close().await();
            vertx.close().await();
        }
    }

    private static Future<List<RequestResult>> replay(Vertx vertx, StreamingChatClient client, List<SimRequest> requests,
            double timeScale) {
        RequestResult[] results = new RequestResult[requests.size()];
        Promise<List<RequestResult>> done = Promise.promise();
        if (requests.isEmpty()) {
            done.complete(List.of());
            return done.future();
        }
        AtomicInteger remaining = new AtomicInteger(requests.size());
        for (SimRequest r : requests) {
            long delay = Math.max(1, Math.round(r.arrivalNanos() / 1e6 * timeScale));
            vertx.setTimer(delay, id -> send(client, ValidationPrompts.text(r.promptTokens(), r.index()), r.promptTokens(),
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

    private static Future<RequestResult> send(StreamingChatClient client, String prompt, int promptTokens, int maxTokens) {
        return client.send(client.body(prompt, maxTokens), promptTokens, null, REQUEST_TIMEOUT_MS, 0, 0, gap -> { });
    }
}
