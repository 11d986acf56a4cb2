package io.pdgateway.workload.report;

import io.pdgateway.workload.Slo;
import io.pdgateway.workload.run.RequestResult;
import io.pdgateway.workload.run.RunRecording;
import java.util.Map;
import java.util.TreeMap;

/**
 * The headline numbers of one run.
 *
 * @param requests        requests the workload held (sent or not)
 * @param succeeded       complete streams
 * @param errors          failed, timed out or abandoned at the deadline
 * @param errorKinds      errors by kind ("http 503", "timeout", ...)
 * @param fallbacks       requests a standard pod served (pd-gateway's {@code target-pod} without a prefill pod)
 * @param wallSeconds     from the first send to the last finish
 * @param requestsPerSecond  succeeded requests per wall second
 * @param outputTokensPerSecond tokens received per wall second
 * @param goodput         share of all requests that succeeded within the SLO
 * @param lagP99Millis    p99 of how late requests were sent (the load generator's own health: should be ~0)
 */
public record RunSummary(int requests, int succeeded, int errors, Map<String, Integer> errorKinds, int fallbacks,
        double wallSeconds, double requestsPerSecond, double outputTokensPerSecond, LatencyStats ttfb, LatencyStats ttft,
        LatencyStats tpot, LatencyStats itl, LatencyStats e2e, Slo slo, double goodput, double lagP99Millis) {
    public RunSummary {
        errorKinds = Map.copyOf(errorKinds);
    }

    public static RunSummary of(RunRecording run, Slo slo) {
        LatencyHistograms h = LatencyHistograms.of(run);
        int succeeded = 0;
        int met = 0;
        int fallbacks = 0;
        long tokens = 0;
        Map<String, Integer> kinds = new TreeMap<>();
        for (RequestResult result : run.results()) {
            tokens += result.outputTokens();
            if (result.fallback()) {
                fallbacks++;
            }
            if (result.failed()) {
                kinds.merge(result.errorKind(), 1, Integer::sum);
            } else {
                succeeded++;
            }
            if (result.met(slo)) {
                met++;
            }
        }
        if (run.abandoned() > 0) {
            kinds.merge("abandoned at the run's deadline", run.abandoned(), Integer::sum);
        }
        int requests = run.results().size() + run.abandoned();
        double wall = Math.max(run.wallSeconds(), 1e-9);
        return new RunSummary(requests, succeeded, requests - succeeded, kinds, fallbacks, run.wallSeconds(),
                succeeded / wall, tokens / wall, LatencyStats.of(h.ttfb()), LatencyStats.of(h.ttft()),
                LatencyStats.of(h.tpot()), LatencyStats.of(run.chunkGaps()), LatencyStats.of(h.e2e()), slo,
                requests == 0 ? Double.NaN : (double) met / requests, h.lag().getTotalCount() == 0 ? Double.NaN
                        : h.lag().getValueAtPercentile(99));
    }
}
