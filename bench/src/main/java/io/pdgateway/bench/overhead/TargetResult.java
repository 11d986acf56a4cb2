package io.pdgateway.bench.overhead;

import io.pdgateway.workload.report.RunReport;


/**
 * One target (direct, pd-gateway, nginx) at one prompt size: the fixed-rate latency run and the rate search.
 *
 * @param search null when the search was skipped
 * @param cpu the proxy's CPU, {@link ProxyCpu#NONE} for a target without a process of its own
 */
public record TargetResult(String target, RunReport fixedRate, RateSearch search, ProxyCpu cpu) {
    /** A target without CPU figures. */
    public TargetResult(String target, RunReport fixedRate, RateSearch search) {
        this(target, fixedRate, search, ProxyCpu.NONE);
    }
}
