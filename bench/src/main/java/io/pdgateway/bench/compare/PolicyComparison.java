package io.pdgateway.bench.compare;

import io.pdgateway.bench.load.Endpoint;
import io.pdgateway.bench.load.LoadRunner;
import io.pdgateway.bench.load.PdLegsClient;
import io.pdgateway.bench.load.ProgressLine;
import io.pdgateway.bench.load.RoundRobinTargets;
import io.pdgateway.bench.load.StreamingChatClient;
import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.cluster.PodManifest;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.server.GatewayServer;
import io.pdgateway.sim.cluster.LoopbackCluster;
import io.pdgateway.server.discovery.PodFileDiscovery;
import io.pdgateway.workload.LoadSchedule;
import io.pdgateway.workload.Slo;
import io.pdgateway.workload.report.RunReport;
import io.pdgateway.workload.run.RunRecording;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one workload through a fresh simulated cluster and a fresh gateway per setup, so no run inherits another's
 * prefix caches, ledgers or queues, and returns one report per setup. Like a cache simulator broadcasting one trace
 * to every policy: the same requests at the same times, only the routing differs.
 *
 * <p>Pods, gateway and load generator each get their own Vert.x instance (own event loops) inside this process, so a
 * busy simulated pod never delays the gateway's event loop; all share the machine's cores, which is why the
 * simulated pods run at a time scale where they, not the gateway, are the bottleneck (see BENCHMARKS.md).
 */
public final class PolicyComparison {
    /** The gateway scrapes pod metrics every 50 ms; a second lets every pod's first scrape land before load starts. */
    static final long SETTLE_MS = 1_000;
    /** After a run, every ledger and stream must be back to zero within this time, or the report says so. */
    static final long QUIESCE_TIMEOUT_MS = 10_000;
    static final long QUIESCE_POLL_MS = 50;
    /** The seed every gateway's random choices start from, so a rerun makes the same random picks. */
    static final long GATEWAY_SEED = 42;

    private final LoadSchedule workload;
    private final LoadSchedule warmup;
    private final Map<String, String> baseEnv;
    private final Slo slo;
    private final long timeoutMillis;
    private final PrintStream out;

    /**
     * @param warmup   sent once before the first setup, through a cluster of its own, and not reported: warms the JIT
     *                 so the first setup is not measured on a cold JVM (may be empty)
     * @param baseEnv  gateway environment applied to every setup before the setup's own variables
     * @param out      progress lines go here
     */
    public PolicyComparison(LoadSchedule workload, LoadSchedule warmup, Map<String, String> baseEnv, Slo slo,
            long timeoutMillis, PrintStream out) {
        this.workload = workload;
        this.warmup = warmup;
        this.baseEnv = Map.copyOf(baseEnv);
        this.slo = slo;
        this.timeoutMillis = timeoutMillis;
        this.out = out;
    }

    public List<RunReport> run(List<CompareSetup> setups) throws IOException {
        Vertx pods = Vertx.vertx();
        Vertx gateways = Vertx.vertx();
        Vertx clients = Vertx.vertx();
        try {
            if (!warmup.requests().isEmpty() && !setups.isEmpty()) {
                out.printf("warm-up: %d requests through %s (not reported)%n", warmup.size(), setups.get(0).name());
                runOne(setups.get(0), warmup, pods, gateways, clients);
            }
            List<RunReport> reports = new ArrayList<>();
            for (CompareSetup setup : setups) {
                out.printf("%s: %s%n", setup.name(), setup.describe());
                Outcome outcome = runOne(setup, workload, pods, gateways, clients);
                out.printf("  %s%n", outcome.cache().describe());
                String details = setup.describe() + "; " + outcome.cache().describe() + (outcome.leftovers().isEmpty()
                        ? "" : "; NOT QUIESCENT after the run: " + outcome.leftovers());
                reports.add(RunReport.of(setup.name(), details, outcome.recording(), slo));
            }
            return reports;
        } finally {
            clients.close().await();
            gateways.close().await();
            pods.close().await();
        }
    }

    private record Outcome(RunRecording recording, String leftovers, PrefixCacheStats cache) {}

    private Outcome runOne(CompareSetup setup, LoadSchedule load, Vertx pods, Vertx gateways, Vertx clients)
            throws IOException {
        Path dir = Files.createTempDirectory("pd-gateway-compare");
        Path podFile = dir.resolve("pods.yaml");
        LoopbackCluster cluster = LoopbackCluster.start(pods, setup.shape(), podFile).await();
        if (setup.clientRoundRobin()) {
            return runWithoutGateway(load, cluster, clients, dir, podFile);
        }
        PodFileDiscovery discovery = new PodFileDiscovery(gateways, podFile);
        GatewayServer gateway = null;
        StreamingChatClient client = null;
        try {
            discovery.start();
            Map<String, String> env = new HashMap<>(baseEnv);
            env.putAll(setup.env());
            gateway = GatewayServer.start(gateways, discovery, GatewaySettings.fromEnv(env), "127.0.0.1", 0,
                    GATEWAY_SEED).await();
            sleep(SETTLE_MS);
            client = StreamingChatClient.open(clients, Endpoint.local("127.0.0.1", gateway.port()), LoopbackCluster.MODEL,
                    Map.of());
            RunRecording recording = new LoadRunner(client, ProgressLine.to(out, "  "), timeoutMillis).run(load);
            String leftovers = awaitQuiescent(gateway, cluster);
            return new Outcome(recording, leftovers, PrefixCacheStats.scrape(cluster.sims()));
        } finally {
            if (client != null) {
                client.close().await();
            }
            if (gateway != null) {
                gateway.close().await();
            } else {
                discovery.close();
            }
            cluster.close().await();
            Files.deleteIfExists(podFile);
            Files.deleteIfExists(dir);
        }
    }

    /** {@code pd/round-robin}: the load generator takes the cluster's prefill/decode pairs in turn, running both legs. */
    private Outcome runWithoutGateway(LoadSchedule load, LoopbackCluster cluster, Vertx clients, Path dir,
            Path podFile) throws IOException {
        RoundRobinTargets client = new RoundRobinTargets(pairs(cluster, clients));
        try {
            RunRecording recording = new LoadRunner(client, ProgressLine.to(out, "  "), timeoutMillis).run(load);
            String leftovers = awaitQuiescent(null, cluster);
            return new Outcome(recording, leftovers, PrefixCacheStats.scrape(cluster.sims()));
        } finally {
            client.close().await();
            cluster.close().await();
            Files.deleteIfExists(podFile);
            Files.deleteIfExists(dir);
        }
    }

    /** Every (prefill, decode) pair within each roleset, rolesets in order: taken in turn, each pod gets its share. */
    static List<PdLegsClient> pairs(LoopbackCluster cluster, Vertx clients) {
        Map<String, List<SimPod>> prefills = new LinkedHashMap<>();
        Map<String, List<SimPod>> decodes = new LinkedHashMap<>();
        List<PodManifest.Entry> entries = cluster.entries();
        for (int i = 0; i < entries.size(); i++) {
            String roleset = entries.get(i).labels().get(SpecLabels.ROLESET_NAME);
            if (roleset != null) {
                boolean prefill = SpecLabels.ROLE_PREFILL.equals(entries.get(i).labels().get(SpecLabels.ROLE_NAME));
                (prefill ? prefills : decodes).computeIfAbsent(roleset, r -> new ArrayList<>())
                        .add(cluster.sims().get(i));
            }
        }
        List<PdLegsClient> pairs = new ArrayList<>();
        prefills.forEach((roleset, ps) -> {
            for (SimPod p : ps) {
                for (SimPod d : decodes.getOrDefault(roleset, List.of())) {
                    pairs.add(PdLegsClient.open(clients, PdLegsClient.Protocol.VLLM, Endpoint.local(p.host(), p.port()),
                            Endpoint.local(d.host(), d.port()), p.bootstrapPort(), LoopbackCluster.MODEL));
                }
            }
        });
        return pairs;
    }

    /**
     * Waits for every request to have left the gateway (null when there was none) and the pods; returns what is
     * left, or "" when all is clear.
     */
    static String awaitQuiescent(GatewayServer gateway, LoopbackCluster cluster) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(QUIESCE_TIMEOUT_MS);
        String left;
        do {
            left = leftovers(gateway, cluster);
            if (left.isEmpty()) {
                return left;
            }
            sleep(QUIESCE_POLL_MS);
        } while (System.nanoTime() < deadline);
        return left;
    }

    private static String leftovers(GatewayServer gateway, LoopbackCluster cluster) {
        List<String> left = new ArrayList<>();
        if (gateway == null) {
            return cluster.openStreams() != 0 ? "pod streams " + cluster.openStreams() : "";
        }
        if (gateway.routing().session().requests().outstanding() != 0) {
            left.add("request ledger " + gateway.routing().session().requests().outstanding());
        }
        if (gateway.routing().session().tokens().outstandingTokens() != 0) {
            left.add("token ledger " + gateway.routing().session().tokens().outstandingTokens());
        }
        if (gateway.metrics().inFlight() != 0) {
            left.add("gateway in flight " + gateway.metrics().inFlight());
        }
        if (cluster.openStreams() != 0) {
            left.add("pod streams " + cluster.openStreams());
        }
        return String.join(", ", left);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
