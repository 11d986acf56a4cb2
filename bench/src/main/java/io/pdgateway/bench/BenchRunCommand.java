package io.pdgateway.bench;

import io.pdgateway.bench.load.Endpoint;
import io.pdgateway.bench.load.LoadRunner;
import io.pdgateway.bench.load.ProgressLine;
import io.pdgateway.bench.load.StreamingChatClient;
import io.pdgateway.workload.LoadSchedule;
import io.pdgateway.workload.report.Environment;
import io.pdgateway.workload.report.ReportDocument;
import io.pdgateway.workload.report.RunReport;
import io.pdgateway.workload.report.SummaryTable;
import io.pdgateway.workload.run.RunRecording;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bench run}: open-loop load from a trace or a synthetic mix against any OpenAI-compatible endpoint. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Replay a trace or a synthetic mix against an OpenAI-compatible endpoint, open loop, and report "
                + "TTFT, TPOT, end-to-end latency, throughput, goodput and errors.")
public final class BenchRunCommand implements Callable<Integer> {
    /** Without a cap a run is one minute of arrivals: long enough for stable percentiles, short enough to repeat. */
    static final double DEFAULT_DURATION_SECONDS = 60;

    @Spec
    CommandSpec spec;

    @Option(names = "--url", defaultValue = "http://127.0.0.1:8888", description = "Base URL of the endpoint; chat "
            + "completions go to <url>/v1/chat/completions (default: ${DEFAULT-VALUE}).")
    String url;

    @Option(names = "--model", defaultValue = "my-model", description = "The model to ask for (default: ${DEFAULT-VALUE}).")
    String model;

    @Option(names = {"-H", "--header"}, paramLabel = "'NAME: VALUE'", description = "A header for every request, "
            + "e.g. 'routing-strategy: pd' or 'Authorization: Bearer ...' (repeatable).")
    List<String> headers = List.of();

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "120",
            description = "A request not finished after this long is a timeout error (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @Option(names = "--name", defaultValue = "run", description = "Label of this run in the reports.")
    String name;

    @Mixin
    WorkloadOptions workload;

    @Mixin
    ReportOptions report;

    @Override
    public Integer call() throws Exception {
        Path scratch = Files.createTempDirectory("pd-gateway-bench");
        LoadSchedule load = workload.load(new WorkloadOptions.Defaults(null, 1, DEFAULT_DURATION_SECONDS, 0), scratch);
        Endpoint endpoint = Endpoint.parse(url);
        System.out.printf("%d requests over %.0f s against %s%n", load.size(), load.spanMillis() / 1000.0, endpoint);
        Vertx vertx = Vertx.vertx();
        StreamingChatClient client = StreamingChatClient.open(vertx, endpoint, model, parseHeaders(headers));
        RunRecording recording;
        try {
            recording = new LoadRunner(client, ProgressLine.to(System.out, ""), timeoutSeconds * 1000).run(load);
        } finally {
            client.close().await();
            vertx.close().await();
        }
        RunReport run = RunReport.of(name, endpoint.toString(), recording, report.slo());
        ReportDocument document = new ReportDocument("pd-gateway bench run against " + endpoint,
                ReportOptions.commandLine(spec), Environment.current(), load.description(), List.of(run), List.of());
        System.out.println();
        System.out.print(SummaryTable.header(document));
        System.out.print(SummaryTable.single(run));
        report.write(document, System.out);
        return run.summary().errors() == 0 ? 0 : 1;
    }

    static Map<String, String> parseHeaders(List<String> headers) {
        Map<String, String> parsed = new LinkedHashMap<>();
        for (String header : headers) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("header '" + header + "' is not 'NAME: VALUE'");
            }
            parsed.put(header.substring(0, colon).trim(), header.substring(colon + 1).trim());
        }
        return parsed;
    }
}
