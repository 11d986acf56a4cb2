package io.pdgateway.bench;

import io.pdgateway.bench.compare.ClusterSizes;
import io.pdgateway.bench.compare.CompareSetup;
import io.pdgateway.bench.compare.PolicyComparison;
import io.pdgateway.sim.TimingProfile;
import io.pdgateway.workload.LoadRequest;
import io.pdgateway.workload.LoadSchedule;
import io.pdgateway.workload.report.Environment;
import io.pdgateway.workload.report.ReportDocument;
import io.pdgateway.workload.report.RunReport;
import io.pdgateway.workload.report.SummaryTable;
import io.pdgateway.workload.trace.BundledTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench compare}: one workload through a fresh simulated cluster per routing setup, one table. The defaults
 * run seven setups over 45 s of the bundled Mooncake trace head at 2x in about seven minutes on 2 cores.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run the same workload through freshly started simulated clusters, once per routing setup, and "
                + "print TTFT/TPOT p50/p99, goodput and errors side by side.")
public final class BenchCompareCommand implements Callable<Integer> {
    /**
     * Twice the recorded Mooncake rate (~6 req/s of ~13k-token prompts, ~75k prompt tokens/s before cache hits)
     * keeps four simulated H100 prefill pods (~30k tokens/s each) busy enough that where a prompt goes decides how
     * long it waits, which is what the policies differ in, without queueing without end.
     */
    static final double DEFAULT_SPEEDUP = 2;
    /** Seven setups of 45 s of arrivals plus their tails fit the 10-minute budget on 2 cores. */
    static final double DEFAULT_DURATION_SECONDS = 45;
    /**
     * Outputs capped at 64 tokens: enough for stable TPOT, while every token is an SSE chunk through three hops on
     * this machine's two cores (the recorded ~350-token outputs would make the chunks, not the pods, the bottleneck).
     */
    static final int DEFAULT_MAX_OUTPUT_TOKENS = 64;

    @Spec
    CommandSpec spec;

    @Option(names = "--setups", split = ",", paramLabel = "SETUP", description = "Comma-separated setups: "
            + "standard/<strategy>, pd/<prefill>[:<decode>], pd+standard/<prefill>[:<decode>] (default: "
            + "standard/random,standard/least-request,pd/prefix_cache,pd/least_request,pd/token_load,"
            + "pd/hybrid_cache_load,pd+standard/prefix_cache).")
    List<String> setups = CompareSetup.DEFAULTS;

    @Option(names = "--standard-pods", defaultValue = "6", description = "Pods of a standard cluster (default: ${DEFAULT-VALUE}).")
    int standardPods;

    @Option(names = "--rolesets", defaultValue = "2", description = "Rolesets of a PD cluster (default: ${DEFAULT-VALUE}).")
    int rolesets;

    @Option(names = "--prefill-per-roleset", defaultValue = "2", description = "Prefill pods in each roleset "
            + "(default: ${DEFAULT-VALUE}).")
    int prefillPerRoleset;

    @Option(names = "--decode-per-roleset", defaultValue = "1", description = "Decode pods in each roleset "
            + "(default: ${DEFAULT-VALUE}).")
    int decodePerRoleset;

    @Option(names = "--overflow-pods", defaultValue = "1", description = "Standard pods added in pd+standard setups "
            + "(default: ${DEFAULT-VALUE}).")
    int overflowPods;

    @Option(names = "--standard-min-prompt-tokens", defaultValue = "32768", description = "In pd+standard setups, "
            + "prompts this long or longer go to the standard pods (default: ${DEFAULT-VALUE}, the longest 7%% of "
            + "Mooncake prompts, a third of its prompt tokens).")
    int standardMinPromptTokens;

    @Option(names = "--time-scale", defaultValue = "1.0", description = "Simulated engine time per wall time: 1.0 is "
            + "a real H100's speed, 0.01 a hundred times faster (default: ${DEFAULT-VALUE}).")
    double timeScale;

    @Option(names = "--timing", defaultValue = TimingProfile.LLAMA3_8B_H100, description = "Engine timing profile: "
            + TimingProfile.LLAMA3_8B_H100 + " or " + TimingProfile.LLAMA3_70B_TP4_H100 + " (default: ${DEFAULT-VALUE}).")
    String timing;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "120",
            description = "A request not finished after this long is a timeout error (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @Option(names = "--warmup-seconds", defaultValue = "10", description = "Replay this much of the workload once "
            + "before the first setup, unreported, to warm the JIT (default: ${DEFAULT-VALUE}).")
    double warmupSeconds;

    @Option(names = "--env", paramLabel = "NAME=VALUE", description = "Gateway environment for every setup, e.g. "
            + "AIBRIX_MIN_MATCH_PCT=30 (repeatable; a setup's own policy variables win).")
    List<String> env = List.of();

    @Mixin
    WorkloadOptions workload;

    @Mixin
    ReportOptions report;

    @Override
    public Integer call() throws Exception {
        ClusterSizes sizes = new ClusterSizes(standardPods, rolesets, prefillPerRoleset, decodePerRoleset, overflowPods,
                standardMinPromptTokens, TimingProfile.byName(timing), timeScale);
        List<CompareSetup> parsed = new ArrayList<>();
        for (String setup : setups) {
            parsed.add(CompareSetup.parse(setup, sizes));
        }
        Path scratch = Files.createTempDirectory("pd-gateway-compare");
        LoadSchedule load = workload.load(new WorkloadOptions.Defaults(BundledTrace.MOONCAKE_CONVERSATION, DEFAULT_SPEEDUP,
                DEFAULT_DURATION_SECONDS, DEFAULT_MAX_OUTPUT_TOKENS), scratch);
        LoadSchedule warmup = new LoadSchedule("warm-up", load.requests().stream()
                .filter(r -> r.arrivalMillis() < warmupSeconds * 1000).map(LoadRequest.class::cast).toList());
        System.out.printf(Locale.ROOT, "%d setups x %d requests over %.0f s (%s)%n", parsed.size(), load.size(),
                load.spanMillis() / 1000.0, load.description());
        List<RunReport> runs = new PolicyComparison(load, warmup, parseEnv(env), report.slo(), timeoutSeconds * 1000,
                System.out).run(parsed);
        ReportDocument document = new ReportDocument("pd-gateway bench compare", ReportOptions.commandLine(spec),
                Environment.current(), load.description(), runs, List.of(String.format(Locale.ROOT,
                        "simulated vLLM pods (%s) at time scale %s; each setup on a fresh cluster and gateway in this "
                                + "process", timing, timeScale)));
        System.out.println();
        System.out.print(SummaryTable.header(document));
        System.out.print(SummaryTable.compare(runs));
        report.write(document, System.out);
        return 0;
    }

    static Map<String, String> parseEnv(List<String> pairs) {
        Map<String, String> parsed = new LinkedHashMap<>();
        for (String pair : pairs) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--env '" + pair + "' is not NAME=VALUE");
            }
            parsed.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return parsed;
    }
}
