package io.pdgateway.workload.report;

import io.pdgateway.workload.Slo;
import io.pdgateway.workload.run.RunRecording;
import java.util.List;

/**
 * One run, ready for the table, JSON and HTML writers.
 *
 * @param name    what distinguishes it from the others in the same report ("pd/token_load", "nginx", ...)
 * @param details how it was set up (cluster shape, policy environment, target URL)
 */
public record RunReport(String name, String details, RunSummary summary, TimeSeries series, List<LatencyCdf> cdfs) {
    public RunReport {
        cdfs = List.copyOf(cdfs);
    }

    public static RunReport of(String name, String details, RunRecording run, Slo slo) {
        LatencyHistograms h = LatencyHistograms.of(run);
        return new RunReport(name, details, RunSummary.of(run, slo), TimeSeries.of(run), List.of(
                LatencyCdf.of("ttft", h.ttft()), LatencyCdf.of("tpot", h.tpot()), LatencyCdf.of("e2e", h.e2e()),
                LatencyCdf.of("ttfb", h.ttfb()), LatencyCdf.of("itl", run.chunkGaps())));
    }

    public LatencyCdf cdf(String metric) {
        return cdfs.stream().filter(c -> c.metric().equals(metric)).findFirst()
                .orElse(new LatencyCdf(metric, List.of()));
    }
}
