package io.pdgateway.bench.overhead;

import io.pdgateway.workload.report.RunReport;


/**
 * One target (direct, pd-gateway, nginx) at one prompt size: the fixed-rate latency run and the rate search.
 *
 * @param search null when the search was skipped
 */
public record TargetResult(String target, RunReport fixedRate, RateSearch search) {}
