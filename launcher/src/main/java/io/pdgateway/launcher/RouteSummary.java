package io.pdgateway.launcher;

import io.pdgateway.workload.run.RequestResult;
import io.pdgateway.workload.run.RunRecorder;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.DoubleHistogram;

/** Per-route latency table of a replay: requests, TTFT and TPOT p50/p99, fallbacks, errors. */
public final class RouteSummary {
    private static final int PRECISION = RunRecorder.PRECISION;

    private final Map<String, Row> rows = new TreeMap<>();
    private int total;
    private int errors;
    private int fallbacks;

    private static final class Row {
        final DoubleHistogram ttft = new DoubleHistogram(PRECISION);
        final DoubleHistogram tpot = new DoubleHistogram(PRECISION);
        int requests;
        int errors;
        boolean fallback;
    }

    public static RouteSummary of(List<RequestResult> results) {
        RouteSummary summary = new RouteSummary();
        results.forEach(summary::add);
        return summary;
    }

    public synchronized void add(RequestResult result) {
        Row row = rows.computeIfAbsent(result.route(), k -> new Row());
        row.requests++;
        row.fallback |= result.fallback();
        total++;
        if (result.fallback()) {
            fallbacks++;
        }
        if (result.failed()) {
            row.errors++;
            errors++;
            return;
        }
        if (result.ttftMillis() >= 0) {
            row.ttft.recordValue(Math.max(result.ttftMillis(), 0.001));
        }
        if (result.tpotMillis() >= 0) {
            row.tpot.recordValue(Math.max(result.tpotMillis(), 0.001));
        }
    }

    public synchronized int total() {
        return total;
    }

    public synchronized int errors() {
        return errors;
    }

    public synchronized int fallbacks() {
        return fallbacks;
    }

    public synchronized List<String> routes() {
        return List.copyOf(rows.keySet());
    }

    public synchronized void print(PrintStream out) {
        String format = "%-44s %8s %10s %10s %10s %10s %7s%n";
        out.printf(Locale.ROOT, format, "route", "requests", "TTFT p50", "TTFT p99", "TPOT p50", "TPOT p99", "errors");
        rows.forEach((route, row) -> out.printf(Locale.ROOT, format, route + (row.fallback ? " (fallback)" : ""),
                row.requests, ms(row.ttft, 50), ms(row.ttft, 99), ms(row.tpot, 50), ms(row.tpot, 99), row.errors));
        out.printf(Locale.ROOT, "total %d requests, %d served by standard pods (fallback), %d errors%n", total, fallbacks,
                errors);
    }

    private static String ms(DoubleHistogram histogram, double percentile) {
        if (histogram.getTotalCount() == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.1f ms", histogram.getValueAtPercentile(percentile));
    }
}
