package io.pdgateway.routingsim.report;

import io.pdgateway.workload.report.Html;
import io.pdgateway.workload.report.SvgBarChart;
import io.pdgateway.workload.report.SvgLineChart;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The report as one self-contained HTML page: the table, bar charts of goodput and latencies, and TTFT CDFs. */
public final class HtmlWriter {
    private HtmlWriter() {}

    public static String write(SimulationReport report) {
        List<String> names = new ArrayList<>();
        int n = report.policies().size();
        double[] goodput = new double[n];
        double[] attainment = new double[n];
        double[] ttft50 = new double[n];
        double[] ttft99 = new double[n];
        double[] tpot50 = new double[n];
        double[] tpot99 = new double[n];
        SvgLineChart cdf = new SvgLineChart("TTFT distribution (1st to 99th percentile)", "ms", "percentile", true);
        boolean anyLatency = false;
        for (int i = 0; i < n; i++) {
            PolicyReport p = report.policies().get(i);
            names.add(p.name());
            goodput[i] = p.goodput();
            attainment[i] = 100 * p.attainment();
            ttft50[i] = p.ttftP50();
            ttft99[i] = p.ttftP99();
            tpot50[i] = p.tpotP50();
            tpot99[i] = p.tpotP99();
            List<double[]> points = new ArrayList<>();
            double[] percentiles = p.ttftPercentiles();
            for (int q = 0; q < percentiles.length; q++) {
                points.add(new double[] {percentiles[q], q + 1});
            }
            anyLatency |= percentiles.length > 0;
            cdf.add(new SvgLineChart.Series(p.name(), points));
        }
        StringBuilder html = new StringBuilder("<!DOCTYPE html><html><head><meta charset='utf-8'><title>routing-sim: ")
                .append(Html.escape(report.workload())).append("</title><style>body{font-family:sans-serif;"
                        + "margin:24px;color:#222}pre{background:#f6f6f6;padding:12px;overflow-x:auto}"
                        + "figure{margin:18px 0}</style></head><body>");
        html.append("<h1>routing-sim: ").append(Html.escape(report.workload())).append("</h1>");
        html.append(String.format(Locale.ROOT, "<p>%d requests over %.0f s (%s) on %s. Seed %d. SLO: TTFT &le; %.0f ms, "
                        + "TPOT &le; %.0f ms.</p>", report.requests(), report.spanSeconds(),
                Html.escape(report.workloadSource()), Html.escape(report.cluster()), report.seed(),
                report.slo().ttftMillis(), report.slo().tpotMillis()));
        html.append("<p>Reproduce: <code>").append(Html.escape(report.command())).append("</code></p>");
        html.append("<pre>").append(Html.escape(TableWriter.write(report))).append("</pre>");
        figure(html, SvgBarChart.render("Goodput (requests/s meeting the SLO)", names,
                List.of(new SvgBarChart.Series("goodput", goodput)), "req/s"));
        figure(html, SvgBarChart.render("SLO attainment", names,
                List.of(new SvgBarChart.Series("attainment", attainment)), "%"));
        figure(html, SvgBarChart.render("Time to first token", names,
                List.of(new SvgBarChart.Series("p50", ttft50), new SvgBarChart.Series("p99", ttft99)), "ms"));
        figure(html, SvgBarChart.render("Time per output token", names,
                List.of(new SvgBarChart.Series("p50", tpot50), new SvgBarChart.Series("p99", tpot99)), "ms"));
        if (anyLatency) {
            figure(html, cdf.render());
        }
        return html.append("</body></html>\n").toString();
    }

    private static void figure(StringBuilder html, String svg) {
        html.append("<figure>").append(svg).append("</figure>");
    }
}
