package io.pdgateway.bench.overhead;

/**
 * One step of a rate search: what was offered and what came back.
 *
 * @param offeredRate  requests per second sent (open loop)
 * @param requests     requests sent in the step
 * @param errors       of which failed
 * @param p99Millis    p99 time to first byte of the successful ones
 * @param passed       whether the step met the search's bar (filled in by {@link RateSearch#record})
 * @param cpuMicrosPerRequest the proxy's CPU per request in the step, NaN for a target without a process of its own
 * @param hostCoresBusy how many of the host's cores the step kept busy, everything on it counted ({@link HostCpu}):
 *     near the host's count, the step ran out of CPU; NaN where unknown
 */
public record RateStep(double offeredRate, int requests, int errors, double p99Millis, boolean passed,
        double cpuMicrosPerRequest, double hostCoresBusy) {
    /** A step without CPU figures. */
    public RateStep(double offeredRate, int requests, int errors, double p99Millis, boolean passed) {
        this(offeredRate, requests, errors, p99Millis, passed, Double.NaN, Double.NaN);
    }

    RateStep judged(boolean verdict) {
        return new RateStep(offeredRate, requests, errors, p99Millis, verdict, cpuMicrosPerRequest, hostCoresBusy);
    }
}
