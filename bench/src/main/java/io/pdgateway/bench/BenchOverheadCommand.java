package io.pdgateway.bench;

import io.pdgateway.bench.overhead.GatewayVariant;
import io.pdgateway.bench.overhead.OverheadBenchmark;
import io.pdgateway.bench.overhead.OverheadReport;
import io.pdgateway.bench.overhead.OverheadSettings;
import io.pdgateway.bench.overhead.PdOverheadBenchmark;
import io.pdgateway.bench.overhead.RateSearch;
import io.pdgateway.bench.overhead.SizeResult;
import io.pdgateway.bench.overhead.TargetResult;
import io.pdgateway.workload.report.Environment;
import io.pdgateway.workload.report.HtmlReportWriter;
import io.pdgateway.workload.report.JsonReportWriter;
import io.pdgateway.workload.report.ReportDocument;
import io.pdgateway.workload.report.RunReport;
import io.pdgateway.workload.report.SummaryTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench overhead}: what pd-gateway adds to a stream compared with going straight to the engine, measured
 * against nginx as a plain reverse proxy in the same run; and the highest rate one gateway process sustains before
 * its p99 doubles. The defaults take about five minutes on 2 cores ({@code bin/bench-overhead} installs nginx).
 * Every default bounds the time: 2 sizes x (3 x 5 s warm-up + 2 rounds x 3 targets x 6 s) for the comparison, then
 * at most 8 steps x 3 targets x 4 s per size for the searches, each step ending within its timeout.
 */
@Command(name = "overhead", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Time to the first token and gap between tokens: direct to a simulated pod, through a pd-gateway "
                + "process, through nginx; plus a rate search per target; with small and 200 KB prompts. With --pd: "
                + "prefill/decode pairs, through pd-gateway against a client running both legs itself.")
public final class BenchOverheadCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--pd", split = ",", paramLabel = "ENGINE", description = "Measure prefill/decode instead of one "
            + "hop: per engine (vllm, sglang, trtllm; trtllm-gen for TensorRT-LLM's generation_first), a simulated "
            + "prefill and decode pod driven by a client that runs both legs itself (the reference) and through a "
            + "pd-gateway process routing PD over them.")
    List<String> pdEngines;

    @Option(names = "--prompt-tokens", split = ",", defaultValue = "256,51200", description = "Prompt sizes in "
            + "tokens, 4 bytes each: 256 is 1 KB, 51200 is 200 KB (default: ${DEFAULT-VALUE}).")
    List<Integer> promptTokens;

    @Option(names = "--output-tokens", defaultValue = "32", description = "Tokens per answer (default: ${DEFAULT-VALUE}).")
    int outputTokens;

    @Option(names = "--rate", defaultValue = "40", description = "Requests per second of the latency comparison: "
            + "moderate, so queueing does not hide proxying (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--warmup-requests", defaultValue = "6000", description = "Requests each target answers first, "
            + "unreported, with the first prompt size: the gateway's JIT compiles its request path (C2 needs thousands "
            + "of calls; --jit-settle-seconds waits for the compilations still running after it) (default: "
            + "${DEFAULT-VALUE}).")
    int warmupRequests;

    @Option(names = "--warmup-rate", defaultValue = "400", description = "Arrival rate of that warm-up "
            + "(default: ${DEFAULT-VALUE}).")
    double warmupRate;

    @Option(names = "--jit-settle-seconds", defaultValue = "60", description = "After that warm-up, up to this many "
            + "seconds more of it, in 5-second batches, until the gateway's JIT compiler takes under 2 %% of a core: "
            + "on two cores a compiler still at work takes its share from the measured requests (0: no more; "
            + "default: ${DEFAULT-VALUE}).")
    double jitSettleSeconds;

    @Option(names = "--rounds", defaultValue = "4", description = "The comparison alternates the targets this many "
            + "times, in reverse order every other round, so an even number puts each target in each place alike "
            + "(default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--slice-seconds", defaultValue = "6", description = "Seconds per target per round at least; "
            + "longer when fewer than 500 requests would be due (default: ${DEFAULT-VALUE}).")
    double sliceSeconds;

    @Option(names = "--search-start", defaultValue = "80", description = "First rate of each rate search; steps pass "
            + "while p99 stays within twice the direct path's p99 at --rate, the same limit for every target (default: "
            + "${DEFAULT-VALUE}).")
    double searchStart;

    @Option(names = "--search-max", defaultValue = "3200", description = "Highest rate a search offers "
            + "(default: ${DEFAULT-VALUE}).")
    double searchMax;

    @Option(names = "--search-steps", defaultValue = RateSearch.DEFAULT_STEPS, description = "Steps per rate search "
            + "at most (a failing rate is measured twice; most searches end sooner, at 10 %% resolution), 0 to skip "
            + "the search (default: ${DEFAULT-VALUE}).")
    int searchSteps;

    @Option(names = "--step-seconds", defaultValue = "4", description = "Seconds per search step at least; longer "
            + "(up to 30) when fewer than 500 requests would be due (default: ${DEFAULT-VALUE}).")
    double stepSeconds;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "5", description = "A request taking longer "
            + "is an error; also bounds how long an overloaded step takes to end (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @Option(names = "--nginx", paramLabel = "PATH", description = "The nginx binary (default: found on PATH or in /usr/sbin).")
    Path nginx;

    @Option(names = {"--jvm-references", "--netty-references"}, description = "Also measure three JVM proxies, each "
            + "in its own process: netty-http (Netty's HTTP codecs, objects passed through), netty-tcp (a byte splice, "
            + "no HTTP) and vertx-http (Vert.x's server and client as the gateway sets them up, no gateway code): "
            + "what the gateway's network stack and HTTP layer cost before its own code runs (single hop; not with "
            + "--pd).")
    boolean jvmReferences;

    @Option(names = "--gateway-variant", paramLabel = "NAME=OPTIONS", description = "Also measure a pd-gateway "
            + "process started with these JVM options and gateway settings (quoted, space-separated; a setting as "
            + "PD_GATEWAY_EVENT_LOOPS=1), as target pd-gateway:NAME, alternated with the gateway as deployed in the "
            + "same rounds and searches: a paired comparison of settings (single hop, or with --pd each engine's "
            + "pair, where the variant routes PD too; repeatable).")
    List<String> gatewayVariants = new ArrayList<>();

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the report as JSON.")
    Path json;

    @Option(names = "--html", paramLabel = "FILE", description = "Also write a self-contained HTML page.")
    Path html;

    private List<GatewayVariant> variants() {
        try {
            return gatewayVariants.stream().map(GatewayVariant::parse).toList();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--gateway-variant: " + e.getMessage());
        }
    }

    /** A mistyped engine is a usage error, said before anything starts, as a mistyped option is. */
    private void checkPdEngines() {
        for (String engine : pdEngines == null ? List.<String>of() : pdEngines) {
            if (!PdOverheadBenchmark.ENGINES.contains(engine)) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--pd: PD mode drives " + String.join(", ", PdOverheadBenchmark.ENGINES) + ", not " + engine);
            }
        }
    }

    @Override
    public Integer call() throws Exception {
        checkPdEngines();
        OverheadSettings settings = new OverheadSettings(promptTokens, outputTokens, rate, warmupRequests, warmupRate,
                jitSettleSeconds, rounds, sliceSeconds,
                searchStart, searchMax, searchSteps, stepSeconds, timeoutSeconds * 1000, nginx, jvmReferences,
                variants());
        List<String> notes = new ArrayList<>();
        boolean pd = pdEngines != null && !pdEngines.isEmpty();
        List<SizeResult> sizes = pd ? new PdOverheadBenchmark(settings, pdEngines, System.out).run(notes)
                : new OverheadBenchmark(settings, System.out).run(notes);
        List<RunReport> runs = new ArrayList<>();
        for (SizeResult size : sizes) {
            size.targets().stream().map(TargetResult::fixedRate).forEach(runs::add);
        }
        notes.add(pd ? String.format(Locale.ROOT, "client legs = the load generator runs each request's prefill and "
                + "decode legs itself on a simulated prefill and decode pod at time scale 1e-4 (vLLM: prefill, then the "
                + "decode with the returned kv_transfer_params; SGLang: both at once with one bootstrap room; "
                + "TensorRT-LLM: the context_only leg, then the generation_only leg with its disaggregated_params); "
                + "pd-gateway = one `serve` process, ROUTING_ALGORITHM=pd over that pair; all on loopback with the "
                + "load generator on %d cores", Runtime.getRuntime().availableProcessors())
                : String.format(Locale.ROOT, "direct = a simulated vLLM pod at time scale 1e-4 (answers at once); "
                + "pd-gateway = one `serve` process, ROUTING_ALGORITHM=random over that pod; nginx = worker_processes "
                + "auto, proxy_buffering off; all on loopback with the load generator on %d cores",
                Runtime.getRuntime().availableProcessors()));
        if (jvmReferences && !pd) {
            notes.add("netty-http = a JVM of its own running Netty's HTTP/1.1 codecs on both sides, every head and "
                    + "chunk passed through as it is decoded, upstream connections pooled per event loop; netty-tcp = "
                    + "the same JVM and Netty splicing bytes to an upstream connection of each client connection's "
                    + "own, no HTTP: what the gateway's network stack costs before any of its own code runs; "
                    + "vertx-http = Vert.x's server and client set up as the gateway's (a listener and a pod client per "
                    + "loop), the body read whole and sent on, the answer's chunks written as they come (a turn's "
                    + "gathered into one write, as the gateway's): the gateway's HTTP layer without its code");
        }
        notes.add(String.format(Locale.ROOT, "sustained req/s: highest rate of a stepped search (doubling from %.0f, "
                + "then bisecting; a failing rate is measured twice) whose p99 time to the first token stays within twice "
                + "the reference's (%s) p99 at %.0f req/s, the median of its rounds' (one limit for every target), without "
                + "errors; every round and step lasts until %d requests are due (at most %.0f s), so a p99 is never one "
                + "request's", searchStart, pd ? PdOverheadBenchmark.CLIENT_LEGS : OverheadBenchmark.DIRECT, rate,
                OverheadSettings.MIN_TAIL_REQUESTS, OverheadSettings.MAX_STEP_SECONDS));
        ReportDocument document = new ReportDocument("pd-gateway bench overhead", ReportOptions.commandLine(spec),
                Environment.current(), "one repeated prompt per size, Poisson arrivals, streaming", runs, notes);
        System.out.println();
        System.out.print(SummaryTable.header(document));
        System.out.print(OverheadReport.text(sizes, settings));
        if (json != null) {
            JsonReportWriter.write(OverheadReport.json(document, sizes, settings), json);
            System.out.println("JSON report: " + json.toAbsolutePath());
        }
        if (html != null) {
            HtmlReportWriter.write(document, List.of(OverheadReport.html(sizes, settings)), html);
            System.out.println("HTML report: " + html.toAbsolutePath());
        }
        return 0;
    }
}
