package io.pdgateway.bench.overhead;

import io.pdgateway.workload.report.RunReport;
import java.util.List;

/**
 * One target (direct, pd-gateway, nginx) at one prompt size: the fixed-rate latency run and the rate search.
 *
 * @param search null when the search was skipped
 * @param cpu the proxy's CPU, {@link ProxyCpu#NONE} for a target without a process of its own
 * @param roundTtftP99s each fixed-rate round's own first-token p99, ms, in the order run (the table's p99 pools them)
 * @param hostMicrosPerRequest the whole host's CPU a request in the fixed-rate rounds (the median of the rounds'):
 *     the rig's share and the proxy's together, NaN where unknown
 * @param wakeups how the proxy's threads were scheduled over the fixed-rate rounds, pooled; unknown without a process
 */
public record TargetResult(String target, RunReport fixedRate, RateSearch search, ProxyCpu cpu,
        List<Double> roundTtftP99s, double hostMicrosPerRequest, Wakeups wakeups) {
    public TargetResult {
        roundTtftP99s = List.copyOf(roundTtftP99s);
    }

    /** A target without CPU figures or rounds of its own. */
    public TargetResult(String target, RunReport fixedRate, RateSearch search) {
        this(target, fixedRate, search, ProxyCpu.NONE, List.of(), Double.NaN, Wakeups.UNKNOWN);
    }

    /** A target without the host's CPU figure. */
    public TargetResult(String target, RunReport fixedRate, RateSearch search, ProxyCpu cpu,
            List<Double> roundTtftP99s) {
        this(target, fixedRate, search, cpu, roundTtftP99s, Double.NaN, Wakeups.UNKNOWN);
    }

    /** The median of its rounds' p99s: one round's stall, whichever target it hits, does not decide it. */
    public double medianRoundTtftP99() {
        return SizeMeasurement.median(roundTtftP99s);
    }
}
