package io.pdgateway.bench.validate;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.routingsim.cluster.ClusterShape;
import io.pdgateway.routingsim.cluster.PodGroup;
import io.pdgateway.routingsim.policy.PolicyRegistry;
import io.pdgateway.routingsim.run.PolicyRun;
import io.pdgateway.routingsim.run.RequestRecord;
import io.pdgateway.routingsim.run.RunResult;
import io.pdgateway.routingsim.workload.Workload;
import io.pdgateway.routingsim.workload.WorkloadShape;
import io.pdgateway.routingsim.workload.WorkloadSource;
import io.pdgateway.sim.TimingProfile;
import io.pdgateway.sim.cluster.LoopbackClusterShape;
import io.pdgateway.workload.Slo;
import io.pdgateway.workload.run.RequestResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code routing-sim validate}: the same workload through the simulator and through the real gateway in front of
 * engine-sim pods on loopback (the {@code bin/pd-gateway demo} cluster), then their TTFT and TPOT percentiles side
 * by side, per path (PD pairs, standard pod). Exit status 0 when the percentiles agree within the tolerances.
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

    @Option(names = "--tolerance-p50", defaultValue = "0.10", description = "Allowed relative gap of p50s (default: ${DEFAULT-VALUE}).")
    double toleranceP50;

    @Option(names = "--tolerance-p90", defaultValue = "0.20", description = "Allowed relative gap of p90s (default: ${DEFAULT-VALUE}).")
    double toleranceP90;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the simulator's gateway (default: ${DEFAULT-VALUE}).")
    long seed;

    @Override
    public Integer call() throws Exception {
        ClusterShape shape = demoShape();
        Path traces = tracesDir != null ? tracesDir : Path.of(System.getenv().getOrDefault("ROUTING_SIM_TRACES",
                System.getenv().getOrDefault("ROUTING_SIM_HOME", ".") + "/../shared/traces"));
        Workload workload = new WorkloadShape(speedup, seconds / speedup, maxOutputTokens, 0, 0)
                .apply(WorkloadSource.load(trace, traces, seed, shape.timing().blockSizeTokens()), seed);
        System.err.printf(Locale.ROOT, "validate: %d requests (%s) on %s%n", workload.requests().size(),
                workload.source(), shape.summary());
        RunResult simulated = new PolicyRun(shape, workload, PolicyRegistry.resolve("pd"), seed, Slo.INTERACTIVE).run();
        System.err.printf(Locale.ROOT, "  simulator: %.1f s wall%n", simulated.wallNanos() / 1e9);
        GatewaySettings settings = PolicyRun.settings(shape, PolicyRegistry.resolve("pd"));
        long start = System.nanoTime();
        List<RequestResult> loopback = LoopbackRun.run(workload.requests(), settings, timeScale);
        System.err.printf(Locale.ROOT, "  loopback: %.1f s wall%n", (System.nanoTime() - start) / 1e9);
        Comparison comparison = Comparison.of(simulated.records(), loopback, timeScale);
        System.out.print(comparison.table(toleranceP50, toleranceP90));
        return comparison.agrees(toleranceP50, toleranceP90) && simulated.violations().isEmpty() ? 0 : 1;
    }

    /** The demo cluster (LoopbackClusterShape.demo) as routing-sim's cluster shape: same roles, buckets, timing and gateway environment. */
    static ClusterShape demoShape() {
        return new ClusterShape("my-model", TimingProfile.llama3_8b_h100(),
                Map.of(SpecEnv.PROMPT_LENGTH_BUCKETING, "true"),
                List.of(new PodGroup("group", 2, 1, 1, 0, DEMO_BUCKET, Map.of()),
                        new PodGroup("standard", 1, 0, 0, DEMO_BUCKET, -1, Map.of())),
                "bin/pd-gateway demo cluster");
    }

    /** Whether a simulator record took the standard-pod path. */
    static boolean standard(RequestRecord r) {
        return r.prefillPod() == null;
    }
}
