package io.pdgateway.workload.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The text reports: one run in detail, or several runs side by side (the {@code bench compare} table). */
public final class SummaryTable {
    private SummaryTable() {}

    /** One run: counts and rates, then a row of percentiles per latency, then errors by kind. */
    public static String single(RunReport run) {
        RunSummary s = run.summary();
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%s: %d requests, %d ok, %d errors in %.1f s: %s req/s, %s output tok/s,"
                        + " goodput %s (TTFT <= %s ms, TPOT <= %s ms)%n", run.name(), s.requests(), s.succeeded(),
                s.errors(), s.wallSeconds(), Numbers.rate(s.requestsPerSecond()), Numbers.rate(s.outputTokensPerSecond()),
                Numbers.percent(s.goodput()), Numbers.millis(s.slo().ttftMillis()), Numbers.millis(s.slo().tpotMillis())));
        TextTable table = new TextTable(List.of("latency (ms)", "p50", "p90", "p99", "max", "mean", "count"));
        latencyRow(table, "time to first byte", s.ttfb());
        latencyRow(table, "time to first token", s.ttft());
        latencyRow(table, "time per output token", s.tpot());
        latencyRow(table, "between two tokens", s.itl());
        latencyRow(table, "end to end", s.e2e());
        out.append(table.render());
        out.append(errors(s.errorKinds()));
        if (s.fallbacks() > 0) {
            out.append(s.fallbacks()).append(" requests served by standard pods (fallback)\n");
        }
        out.append(String.format(Locale.ROOT, "load generator: p99 send lag %s ms (near 0 means the client kept up)%n",
                Numbers.millis(s.lagP99Millis())));
        return out.toString();
    }

    /** Several runs over one workload: the columns {@code bench compare} promises. */
    public static String compare(List<RunReport> runs) {
        TextTable table = new TextTable(List.of("setup", "requests", "errors", "TTFT p50", "TTFT p99", "TPOT p50",
                "TPOT p99", "E2E p99", "tok/s", "goodput", "fallbacks", "send lag p99"));
        for (RunReport run : runs) {
            RunSummary s = run.summary();
            table.row(List.of(run.name(), Integer.toString(s.requests()), Integer.toString(s.errors()),
                    Numbers.millis(s.ttft().p50()), Numbers.millis(s.ttft().p99()), Numbers.millis(s.tpot().p50()),
                    Numbers.millis(s.tpot().p99()), Numbers.millis(s.e2e().p99()), Numbers.rate(s.outputTokensPerSecond()),
                    Numbers.percent(s.goodput()), Integer.toString(s.fallbacks()), Numbers.millis(s.lagP99Millis())));
        }
        StringBuilder out = new StringBuilder("latencies in ms\n").append(table.render());
        if (!runs.isEmpty()) {
            RunSummary first = runs.get(0).summary();
            out.append(String.format(Locale.ROOT, "goodput: share of requests with TTFT <= %s ms and TPOT <= %s ms; "
                    + "send lag: how late the load generator sent (high on a busy machine: arrivals bunch up)%n",
                    Numbers.millis(first.slo().ttftMillis()), Numbers.millis(first.slo().tpotMillis())));
        }
        for (RunReport run : runs) {
            if (!run.summary().errorKinds().isEmpty()) {
                out.append(run.name()).append(": ").append(errors(run.summary().errorKinds()));
            }
        }
        return out.toString();
    }

    /** The document header: what, how, where, when. */
    public static String header(ReportDocument document) {
        StringBuilder out = new StringBuilder();
        out.append(document.title()).append('\n');
        out.append("command:  ").append(document.command()).append('\n');
        out.append("machine:  ").append(document.environment().oneLine()).append('\n');
        out.append("workload: ").append(document.workload()).append('\n');
        document.notes().forEach(n -> out.append("note:     ").append(n).append('\n'));
        return out.toString();
    }

    private static void latencyRow(TextTable table, String name, LatencyStats stats) {
        table.row(List.of(name, Numbers.millis(stats.p50()), Numbers.millis(stats.p90()), Numbers.millis(stats.p99()),
                Numbers.millis(stats.max()), Numbers.millis(stats.mean()), Long.toString(stats.count())));
    }

    private static String errors(Map<String, Integer> kinds) {
        if (kinds.isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        kinds.forEach((kind, count) -> parts.add(count + " " + kind));
        return "errors: " + String.join(", ", parts) + "\n";
    }
}
