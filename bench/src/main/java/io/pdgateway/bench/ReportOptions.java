package io.pdgateway.bench;

import io.pdgateway.workload.Slo;
import io.pdgateway.workload.report.HtmlReportWriter;
import io.pdgateway.workload.report.JsonReportWriter;
import io.pdgateway.workload.report.ReportDocument;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** Where reports go and what counts as good: the options every bench command shares. */
public final class ReportOptions {
    /**
     * Default TTFT objective: one second, about where chat users start to notice (and several times the simulated
     * H100's unloaded TTFT for a 10k-token prompt, so it measures queueing, not prompt length).
     */
    static final double DEFAULT_SLO_TTFT_MS = 1_000;
    /** Default TPOT objective: 100 ms a token is ~10 tokens/s, slower than people read. */
    static final double DEFAULT_SLO_TPOT_MS = 100;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the report as JSON.")
    Path json;

    @Option(names = "--html", paramLabel = "FILE", description = "Also write a self-contained HTML page with latency "
            + "CDFs and per-second charts.")
    Path html;

    @Option(names = "--slo-ttft-ms", defaultValue = "" + DEFAULT_SLO_TTFT_MS,
            description = "Goodput: TTFT objective in ms (default: ${DEFAULT-VALUE}).")
    double sloTtftMs;

    @Option(names = "--slo-tpot-ms", defaultValue = "" + DEFAULT_SLO_TPOT_MS,
            description = "Goodput: TPOT objective in ms (default: ${DEFAULT-VALUE}).")
    double sloTpotMs;

    public Slo slo() {
        return new Slo(sloTtftMs, sloTpotMs);
    }

    /** Writes the requested files and says where they went. */
    public void write(ReportDocument document, PrintStream out) throws IOException {
        if (json != null) {
            JsonReportWriter.write(document, json);
            out.println("JSON report: " + json.toAbsolutePath());
        }
        if (html != null) {
            HtmlReportWriter.write(document, html);
            out.println("HTML report: " + html.toAbsolutePath());
        }
    }

    /** The command line as typed (through bin/pd-gateway), quoted where the shell needs it, to paste and rerun. */
    public static String commandLine(CommandSpec spec) {
        List<String> words = new ArrayList<>(List.of("bin/pd-gateway"));
        for (String arg : spec.commandLine().getParseResult().originalArgs()) {
            words.add(arg.matches("[A-Za-z0-9_./:=,+@%-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'");
        }
        return String.join(" ", words);
    }
}
