package io.pdgateway.bench.overhead;

import io.pdgateway.workload.report.RunReport;


/**
 * One target (direct, pd-gateway, nginx) at one prompt size: the fixed-rate latency run and the rate search.
 *
 * @param search null when the search was skipped
 * @param cpuMicrosPerRequest the proxy's CPU per request in the fixed-rate rounds (the median of the rounds'), its
 *     idle work included; NaN for a target without a process of its own (the pod, the client running the legs)
 * @param idleCpuMillisPerSecond the proxy's CPU while nothing was sent (its scraper, timers, compiler); NaN as above
 */
public record TargetResult(String target, RunReport fixedRate, RateSearch search, double cpuMicrosPerRequest,
        double idleCpuMillisPerSecond) {
    /** A target without CPU figures. */
    public TargetResult(String target, RunReport fixedRate, RateSearch search) {
        this(target, fixedRate, search, Double.NaN, Double.NaN);
    }
}
