package io.pdgateway.routingsim;

import io.pdgateway.routingsim.cluster.ClusterShape;
import io.pdgateway.routingsim.cluster.ClusterShapeReader;
import io.pdgateway.routingsim.policy.PolicyRegistry;
import io.pdgateway.routingsim.policy.PolicySpec;
import io.pdgateway.routingsim.report.CsvWriter;
import io.pdgateway.routingsim.report.HtmlWriter;
import io.pdgateway.routingsim.report.JsonWriter;
import io.pdgateway.routingsim.report.SimulationReport;
import io.pdgateway.routingsim.report.TableWriter;
import io.pdgateway.routingsim.search.MaxRateJson;
import io.pdgateway.routingsim.search.MaxRateSearch;
import io.pdgateway.routingsim.search.MaxRateTable;
import io.pdgateway.routingsim.workload.Workload;
import io.pdgateway.routingsim.workload.WorkloadShape;
import io.pdgateway.routingsim.workload.WorkloadSource;
import io.pdgateway.workload.Slo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code routing-sim}: replays a trace through the production routing cascade against simulated pods on a virtual
 * clock, once per policy, and prints one table. The launcher adds {@code routing-sim validate}, bench's comparison
 * with a loopback run of the real gateway, which this module cannot hold: it never depends on the server.
 */
@Command(name = "routing-sim", mixinStandardHelpOptions = true,
        description = "Replays a trace through the real gateway-core cascade against simulated pods, once per policy.")
public final class RoutingSimMain implements Callable<Integer> {
    /** Set by bin/routing-sim: the repository root, where the example clusters and ../shared/traces live. */
    static final String HOME_ENV = "ROUTING_SIM_HOME";
    static final String TRACES_ENV = "ROUTING_SIM_TRACES";

    @Option(names = "--cluster", description = "Cluster shape YAML (default: routing-sim/clusters/small.yaml).")
    Path cluster;

    @Option(names = "--trace", defaultValue = "mooncake",
            description = "mooncake | azure | prefix-heavy | shared-system | synthetic[:rate=8,seconds=300,...] | FILE.jsonl | FILE.csv (default: ${DEFAULT-VALUE}).")
    String trace;

    @Option(names = "--traces-dir", description = "Where the shared traces are (default: $ROUTING_SIM_TRACES or ../shared/traces).")
    Path tracesDir;

    @Option(names = "--policies", split = ",", description = "Policies to compare (default: round-robin, every pd prefill policy, oracle).")
    List<String> policies;

    @Option(names = "--env", description = "Gateway environment on top of the cluster file's, e.g. --env AIBRIX_MIN_MATCH_PCT=30 (repeatable).")
    Map<String, String> env = new LinkedHashMap<>();

    @Option(names = "--seed", defaultValue = "42", description = "Seed of every random choice (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--rate-scale", defaultValue = "1", description = "Arrivals this many times faster than recorded (default: ${DEFAULT-VALUE}).")
    double rateScale;

    @Option(names = "--window-s", defaultValue = "0", description = "Only requests arriving in the first N seconds (after scaling); 0 = all.")
    double windowSeconds;

    @Option(names = "--poisson", defaultValue = "0", description = "Replace arrivals by a Poisson process of this many requests/s, keeping lengths.")
    double poisson;

    @Option(names = "--max-output-tokens", defaultValue = "0", description = "Cap each request's output; 0 = as recorded.")
    int maxOutputTokens;

    @Option(names = "--limit", defaultValue = "0", description = "At most this many requests; 0 = all.")
    int limit;

    @Option(names = "--slo-ttft-ms", defaultValue = "2000", description = "Goodput SLO on time to first token (default: ${DEFAULT-VALUE}).")
    double sloTtftMillis;

    @Option(names = "--slo-tpot-ms", defaultValue = "50", description = "Goodput SLO on time per output token (default: ${DEFAULT-VALUE}).")
    double sloTpotMillis;

    @Option(names = "--threads", description = "Policies simulated at once (default: available processors).")
    Integer threads;

    @Option(names = "--csv", description = "Also write the report as CSV to FILE.")
    Path csv;

    @Option(names = "--json", description = "Also write the report as JSON to FILE.")
    Path json;

    @Option(names = "--html", description = "Also write a self-contained HTML page with charts to FILE.")
    Path html;

    @Option(names = "--kv-event-delay-ms", description = "Engines publish KV-cache events (stored and evicted blocks) "
            + "that reach the gateway after this many ms, and its cache views follow them, as the server's do for pods "
            + "that publish (default: no events, the gateway-side cache model alone).")
    Double kvEventDelayMs;

    @Option(names = "--quiet", description = "No progress lines on stderr.")
    boolean quiet;

    @Option(names = "--replicas", description = "Gateway replicas sharing the traffic (default: the cluster file's "
            + "gatewayReplicas, else 1); they share running counts and the decode ledger as through Redis.")
    Integer replicas;

    @Option(names = "--find-max-rate", description = "Instead of one run per policy, search each policy's highest rate "
            + "scale at which >= 90 %% of requests meet the SLO, starting from --rate-scale, and report the gap each "
            + "closes between round-robin and the oracle.")
    boolean findMaxRate;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        long start = System.nanoTime();
        ClusterShape shape = ClusterShapeReader.read(cluster != null ? cluster : home().resolve("routing-sim/clusters/small.yaml"))
                .withGatewayEnv(env);
        if (replicas != null) {
            shape = shape.withGatewayReplicas(replicas);
        }
        if (kvEventDelayMs != null) {
            shape = shape.withKvEventDelayMillis(kvEventDelayMs);
        }
        List<PolicySpec> specs = PolicyRegistry.resolve(policies != null ? policies : PolicyRegistry.DEFAULT);
        int threadCount = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        if (findMaxRate) {
            // The same requests at every probed rate: the window and caps apply once, at the recorded rate.
            Workload base = new WorkloadShape(1, windowSeconds, maxOutputTokens, poisson, limit).apply(
                    WorkloadSource.load(trace, tracesDir != null ? tracesDir : defaultTracesDir(), seed,
                            shape.timing().blockSizeTokens()), seed);
            return findMaxRates(shape, base, specs, threadCount, start);
        }
        Workload workload = new WorkloadShape(rateScale, windowSeconds, maxOutputTokens, poisson, limit)
                .apply(WorkloadSource.load(trace, tracesDir != null ? tracesDir : defaultTracesDir(), seed,
                        shape.timing().blockSizeTokens()), seed);
        progress(String.format(Locale.ROOT, "routing-sim: %d requests (%s) on %s; %d policies on %d threads",
                workload.requests().size(), workload.source(), shape.summary(), specs.size(), threadCount));
        SimulationReport report = RoutingSimulator.run(shape, workload, specs, seed, new Slo(sloTtftMillis, sloTpotMillis),
                threadCount, reproduce(), this::progress);
        System.out.print(TableWriter.write(report));
        write(csv, CsvWriter.write(report));
        write(json, JsonWriter.write(report));
        write(html, HtmlWriter.write(report));
        progress(String.format(Locale.ROOT, "done in %.1f s wall", (System.nanoTime() - start) / 1e9));
        return report.invariantsHold() ? 0 : 2;
    }

    private Integer findMaxRates(ClusterShape shape, Workload base, List<PolicySpec> specs, int threadCount, long start)
            throws Exception {
        Slo slo = new Slo(sloTtftMillis, sloTpotMillis);
        progress(String.format(Locale.ROOT, "routing-sim: max-rate search, %d requests (%s) on %s; %d policies on %d "
                + "threads", base.requests().size(), base.source(), shape.summary(), specs.size(), threadCount));
        MaxRateSearch search = new MaxRateSearch(shape, base, seed, slo);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                Math.max(1, Math.min(threadCount, specs.size())));
        try {
            List<java.util.concurrent.Future<MaxRateSearch.Result>> futures = new java.util.ArrayList<>();
            for (PolicySpec policy : specs) {
                futures.add(pool.submit(() -> {
                    MaxRateSearch.Result result = search.search(policy, rateScale);
                    progress(String.format(Locale.ROOT, "  %-34s %8.2f req/s after %d probes", policy.name(),
                            result.maxRequestsPerSecond(), result.probes().size()));
                    return result;
                }));
            }
            List<MaxRateSearch.Result> results = new java.util.ArrayList<>();
            for (java.util.concurrent.Future<MaxRateSearch.Result> future : futures) {
                results.add(future.get());
            }
            String heading = String.format(Locale.ROOT, "routing-sim: %s, %d requests, on %s%nseed %d; SLO TTFT <= %.0f "
                    + "ms and TPOT <= %.0f ms; %s%n", base.source(), base.requests().size(), shape.summary(), seed,
                    slo.ttftMillis(), slo.tpotMillis(), reproduce());
            System.out.print(MaxRateTable.write(heading, results));
            write(json, MaxRateJson.write(heading, results));
            progress(String.format(Locale.ROOT, "done in %.1f s wall", (System.nanoTime() - start) / 1e9));
            return 0;
        } finally {
            pool.shutdownNow();
        }
    }

    /** The command line that reproduces this run, as typed through bin/routing-sim (this command's own arguments). */
    private String reproduce() {
        return "bin/routing-sim " + String.join(" ", spec.commandLine().getParseResult().expandedArgs());
    }

    private void progress(String line) {
        if (!quiet) {
            System.err.println(line);
        }
    }

    private static void write(Path file, String content) throws java.io.IOException {
        if (file != null) {
            Files.writeString(file, content);
        }
    }

    static Path home() {
        String home = System.getenv(HOME_ENV);
        return Path.of(home != null && !home.isBlank() ? home : ".");
    }

    static Path defaultTracesDir() {
        String dir = System.getenv(TRACES_ENV);
        return dir != null && !dir.isBlank() ? Path.of(dir) : home().resolve("../shared/traces");
    }
}
