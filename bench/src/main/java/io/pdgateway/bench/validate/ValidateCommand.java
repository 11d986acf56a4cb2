package io.pdgateway.bench.validate;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.routingsim.cluster.ClusterShape;
import io.pdgateway.routingsim.cluster.ClusterShapeReader;
import io.pdgateway.routingsim.cluster.PodGroup;
import io.pdgateway.routingsim.engine.EngineRole;
import io.pdgateway.routingsim.policy.PolicyRegistry;
import io.pdgateway.routingsim.policy.PolicySpec;
import io.pdgateway.routingsim.run.PodSummary;
import io.pdgateway.routingsim.run.PolicyRun;
import io.pdgateway.routingsim.run.RequestRecord;
import io.pdgateway.routingsim.run.RunResult;
import io.pdgateway.routingsim.workload.Workload;
import io.pdgateway.routingsim.workload.WorkloadShape;
import io.pdgateway.routingsim.workload.WorkloadSource;
import io.pdgateway.sim.TimingProfile;
import io.pdgateway.sim.cluster.LoopbackClusterShape;
import io.pdgateway.workload.Slo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code routing-sim validate}: the same workload through the simulator and through the real gateway in front of
 * engine-sim pods on loopback (the {@code bin/pd-gateway demo} cluster, or any routing-sim cluster file of one
 * roleset group and one standard group), then their TTFT and TPOT percentiles side by side, per path (PD pairs,
 * standard pod), and the engines' prefix-cache hit rates. The loopback prompts carry the trace's prefix structure
 * (equal block hashes become equal text), so both sides' caches see the same sharing. Exit status 0 when the
 * percentiles and the hit rate agree within the tolerances.
 *
 * <p>The loopback pods run at time scale 4 by default (every modelled millisecond takes four wall milliseconds), which
 * divides what the harness itself adds (five HTTP hops on the PD path, the gateway's tokenizer, timers firing up to a
 * millisecond late on a busy machine: about 12 ms of wall time per request) by four, so the comparison is about the
 * engine and queueing model rather than about loopback HTTP. At time scale 1 that overhead shows as a TTFT gap of
 * about 15 ms at every percentile.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Compares the simulator with a loopback run of the real gateway in front of engine-sim pods.")
public final class ValidateCommand implements Callable<Integer> {
    /** PD pods take prompts up to 2,048 tokens, the standard pod 2,048 and up. */
    static final int DEMO_BUCKET = LoopbackClusterShape.DEMO_PD_BUCKET_MAX;

    @Option(names = "--trace", defaultValue = "azure", description = "Trace to replay (default: ${DEFAULT-VALUE}).")
    String trace;

    @Option(names = "--traces-dir", description = "Where the shared traces are (default: $ROUTING_SIM_TRACES or ../shared/traces).")
    Path tracesDir;

    @Option(names = "--seconds", defaultValue = "60", description = "Trace seconds to replay (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--speedup", defaultValue = "3", description = "Arrival rate multiplier (default: ${DEFAULT-VALUE}).")
    double speedup;

    @Option(names = "--max-output-tokens", defaultValue = "128", description = "Output cap per request (default: ${DEFAULT-VALUE}).")
    int maxOutputTokens;

    @Option(names = "--time-scale", defaultValue = "4", description = "engine-sim time scale of the loopback pods; latencies are divided by it (default: ${DEFAULT-VALUE}).")
    double timeScale;

    @Option(names = "--min-gap-ms", defaultValue = "10", description = "Least modelled time between consecutive arrivals, so both sides see requests in the same order (default: ${DEFAULT-VALUE}; 0 replays ties as recorded).")
    double minGapMillis;

    @Option(names = "--tolerance-p50", defaultValue = "0.10", description = "Allowed relative gap of p50s (default: ${DEFAULT-VALUE}).")
    double toleranceP50;

    @Option(names = "--tolerance-p90", defaultValue = "0.20", description = "Allowed relative gap of p90s (default: ${DEFAULT-VALUE}).")
    double toleranceP90;

    @Option(names = "--tolerance-hit", defaultValue = "0.05", description = "Allowed absolute gap of the engines' prefix-hit rates, 0..1 (default: ${DEFAULT-VALUE}).")
    double toleranceHit;

    @Option(names = "--cluster", description = "routing-sim cluster shape YAML to run on both sides (default: the bin/pd-gateway demo cluster).")
    Path cluster;

    @Option(names = "--requests-csv", description = "Also write each request as both sides served it (route, TTFT, TPOT) to this CSV file.")
    Path requestsCsv;

    @Option(names = "--policy", defaultValue = "pd", description = "Policy of both sides, as routing-sim names it (default: ${DEFAULT-VALUE}: the cluster's environment).")
    String policy;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the simulator's gateway (default: ${DEFAULT-VALUE}).")
    long seed;

    @Override
    public Integer call() throws Exception {
        ClusterShape shape = cluster == null ? demoShape() : ClusterShapeReader.read(cluster);
        Path traces = tracesDir != null ? tracesDir : Path.of(System.getenv().getOrDefault("ROUTING_SIM_TRACES",
                System.getenv().getOrDefault("ROUTING_SIM_HOME", ".") + "/../shared/traces"));
        Workload workload = ArrivalSpacing.apply(new WorkloadShape(speedup, seconds / speedup, maxOutputTokens, 0, 0)
                .apply(WorkloadSource.load(trace, traces, seed, shape.timing().blockSizeTokens()), seed),
                Math.round(minGapMillis * 1e6));
        System.err.printf(Locale.ROOT, "validate: %d requests (%s) on %s%n", workload.requests().size(),
                workload.source(), shape.summary());
        PolicySpec spec = PolicyRegistry.resolve(policy);
        if (spec.name().equals(PolicyRegistry.FLOOR) || spec.name().equals(PolicyRegistry.CEILING)) {
            throw new IllegalArgumentException("validate runs the gateway's own policies; " + spec.name()
                    + " exists only in the simulator");
        }
        RunResult simulated = new PolicyRun(shape, workload, spec, seed, Slo.INTERACTIVE).run();
        System.err.printf(Locale.ROOT, "  simulator: %.1f s wall%n", simulated.wallNanos() / 1e9);
        // The loopback pods run timeScale times slower than modelled time, so the gateway's prefill deadline (the
        // simulator has none) stretches with them; unstretched it cut long queued prefills the simulator serves.
        double prefillTimeout = PolicyRun.settings(shape, spec).pd().prefillRequestTimeout() * timeScale;
        GatewaySettings settings = PolicyRun.settings(shape.withGatewayEnv(Map.of(SpecEnv.PREFILL_REQUEST_TIMEOUT,
                Double.toString(prefillTimeout))), spec);
        long start = System.nanoTime();
        LoopbackRun.Outcome loopback = LoopbackRun.run(workload.requests(), settings,
                LoopbackShapes.of(shape, timeScale), shape.timing().blockSizeTokens());
        System.err.printf(Locale.ROOT, "  loopback: %.1f s wall%n", (System.nanoTime() - start) / 1e9);
        if (requestsCsv != null) {
            Files.writeString(requestsCsv, RequestPairs.csv(simulated.records(), loopback.results(), timeScale));
        }
        Comparison comparison = Comparison.of(simulated.records(), loopback.results(), timeScale)
                .withPrefixHits(loopback.prefixHitRate(), simulatedHitRate(simulated))
                .withPrefillSpread(loopback.queriedTokensByPod(), simulatedQueriedTokensByPod(simulated));
        Comparison.Tolerances tolerances = new Comparison.Tolerances(toleranceP50, toleranceP90, toleranceHit);
        System.out.printf(Locale.ROOT, "requests sent to the same pods on both sides: %d of %d (reported)%n",
                RequestPairs.samePods(simulated.records(), loopback.results()), simulated.records().size());
        System.out.print(comparison.table(tolerances));
        return comparison.agrees(tolerances) && simulated.violations().isEmpty() ? 0 : 1;
    }

    /** The demo cluster (LoopbackClusterShape.demo) as routing-sim's cluster shape: same roles, buckets, timing and gateway environment. */
    static ClusterShape demoShape() {
        return new ClusterShape("my-model", TimingProfile.llama3_8b_h100(),
                Map.of(SpecEnv.PROMPT_LENGTH_BUCKETING, "true"),
                List.of(new PodGroup("group", 2, 1, 1, 0, DEMO_BUCKET, Map.of()),
                        new PodGroup("standard", 1, 0, 0, DEMO_BUCKET, -1, Map.of())),
                "bin/pd-gateway demo cluster");
    }

    /** Prompt tokens the simulated engines found cached, over the tokens they looked up. */
    static double simulatedHitRate(RunResult run) {
        long queried = 0;
        long hits = 0;
        for (PodSummary pod : run.pods()) {
            queried += pod.prefixQueriedTokens();
            hits += pod.prefixHitTokens();
        }
        return queried == 0 ? 0 : (double) hits / queried;
    }

    /** Prompt tokens each simulated prefilling pod (prefill and standard) looked up in its prefix cache. */
    static long[] simulatedQueriedTokensByPod(RunResult run) {
        return run.pods().stream().filter(pod -> pod.role() != EngineRole.DECODE)
                .mapToLong(PodSummary::prefixQueriedTokens).toArray();
    }

    /** Whether a simulator record took the standard-pod path. */
    static boolean standard(RequestRecord r) {
        return r.prefillPod() == null;
    }
}
