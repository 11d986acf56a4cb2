package io.pdgateway.workload.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The {@code --html} report: one self-contained page (inline CSS and SVG, no script, no external file) with the
 * summary table, latency CDFs of every run on shared axes, and second-by-second charts.
 */
public final class HtmlReportWriter {
    private static final String STYLE = "body{font-family:sans-serif;margin:2em;color:#222;max-width:1100px}"
            + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;"
            + "text-align:right}td:first-child,th:first-child{text-align:left}th{background:#f3f3f3}"
            + "code{background:#f6f6f6;padding:2px 4px;word-break:break-all}.meta td{text-align:left}"
            + "figure{margin:1.5em 0}";

    private HtmlReportWriter() {}

    public static void write(ReportDocument document, Path file) throws IOException {
        write(document, List.of(), file);
    }

    /** @param extraSections more HTML placed after the summary (the overhead report's tables), already escaped */
    public static void write(ReportDocument document, List<String> extraSections, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, render(document, extraSections));
    }

    public static String render(ReportDocument document, List<String> extraSections) {
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(Html.escape(document.title())).append("</title><style>").append(STYLE)
                .append("</style></head><body>\n");
        html.append("<h1>").append(Html.escape(document.title())).append("</h1>\n<table class=\"meta\">");
        meta(html, "command", "<code>" + Html.escape(document.command()) + "</code>");
        meta(html, "machine", Html.escape(document.environment().oneLine()));
        meta(html, "workload", Html.escape(document.workload()));
        for (String note : document.notes()) {
            meta(html, "note", Html.escape(note));
        }
        html.append("</table>\n<h2>Summary</h2>\n").append(summaryTable(document.runs()));
        extraSections.forEach(html::append);
        List<RunReport> runs = document.runs();
        html.append("<h2>Latency distributions</h2>\n");
        chart(html, cdfChart("Time to first token", "ttft", runs));
        chart(html, cdfChart("Time per output token", "tpot", runs));
        chart(html, cdfChart("End-to-end latency", "e2e", runs));
        chart(html, cdfChart("Time to first byte", "ttfb", runs));
        chart(html, cdfChart("Gap between two tokens", "itl", runs));
        html.append("<h2>Over time</h2>\n");
        chart(html, seriesChart("TTFT p99 of the requests sent each second", "ms", runs, TimeSeries.Point::ttftP99Millis));
        chart(html, seriesChart("Output tokens per second", "tokens/s", runs, p -> p.outputTokens()));
        chart(html, seriesChart("Requests in flight", "requests", runs, p -> p.inFlight() < 0 ? Double.NaN : p.inFlight()));
        chart(html, seriesChart("Errors per second", "errors", runs, p -> p.errors()));
        return html.append("</body></html>\n").toString();
    }

    private static void meta(StringBuilder html, String key, String valueHtml) {
        html.append("<tr><th>").append(key).append("</th><td>").append(valueHtml).append("</td></tr>");
    }

    private static void chart(StringBuilder html, String svg) {
        html.append("<figure>").append(svg).append("</figure>\n");
    }

    private static String summaryTable(List<RunReport> runs) {
        StringBuilder html = new StringBuilder("<table><tr><th>setup</th><th>requests</th><th>errors</th>"
                + "<th>TTFT p50</th><th>TTFT p99</th><th>TPOT p50</th><th>TPOT p99</th><th>E2E p50</th><th>E2E p99</th>"
                + "<th>TTFB p50</th><th>TTFB p99</th><th>req/s</th><th>tok/s</th><th>goodput</th><th>fallbacks</th></tr>\n");
        for (RunReport run : runs) {
            RunSummary s = run.summary();
            html.append("<tr><td title=\"").append(Html.escape(run.details())).append("\">")
                    .append(Html.escape(run.name())).append("</td>");
            cells(html, Integer.toString(s.requests()), Integer.toString(s.errors()), Numbers.millis(s.ttft().p50()),
                    Numbers.millis(s.ttft().p99()), Numbers.millis(s.tpot().p50()), Numbers.millis(s.tpot().p99()),
                    Numbers.millis(s.e2e().p50()), Numbers.millis(s.e2e().p99()), Numbers.millis(s.ttfb().p50()),
                    Numbers.millis(s.ttfb().p99()), Numbers.rate(s.requestsPerSecond()),
                    Numbers.rate(s.outputTokensPerSecond()), Numbers.percent(s.goodput()), Integer.toString(s.fallbacks()));
            html.append("</tr>\n");
        }
        html.append("</table>\n");
        if (!runs.isEmpty()) {
            RunSummary first = runs.get(0).summary();
            html.append("<p>Latencies in milliseconds. Goodput: share of all requests that succeeded with TTFT &le; ")
                    .append(Numbers.millis(first.slo().ttftMillis())).append(" ms and TPOT &le; ")
                    .append(Numbers.millis(first.slo().tpotMillis())).append(" ms.</p>\n");
        }
        return html.toString();
    }

    private static void cells(StringBuilder html, String... values) {
        for (String value : values) {
            html.append("<td>").append(Html.escape(value)).append("</td>");
        }
    }

    private static String cdfChart(String title, String metric, List<RunReport> runs) {
        SvgLineChart chart = new SvgLineChart(title + " (CDF)", "milliseconds", "percentile", true);
        for (RunReport run : runs) {
            List<double[]> points = new ArrayList<>();
            for (LatencyCdf.Point p : run.cdf(metric).points()) {
                points.add(new double[] {p.millis(), p.percentile()});
            }
            chart.add(new SvgLineChart.Series(run.name(), points));
        }
        return chart.render();
    }

    private static String seriesChart(String title, String unit, List<RunReport> runs,
            ToDoubleFunction<TimeSeries.Point> value) {
        SvgLineChart chart = new SvgLineChart(title, "seconds into the run", unit, false);
        for (RunReport run : runs) {
            List<double[]> points = new ArrayList<>();
            for (TimeSeries.Point p : run.series().points()) {
                points.add(new double[] {p.second(), value.applyAsDouble(p)});
            }
            chart.add(new SvgLineChart.Series(run.name(), points));
        }
        return chart.render();
    }
}
