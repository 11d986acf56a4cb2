package io.pdgateway.routingsim.search;

import io.pdgateway.routingsim.cluster.ClusterShape;
import io.pdgateway.routingsim.policy.PolicySpec;
import io.pdgateway.routingsim.report.PolicyReport;
import io.pdgateway.routingsim.run.PolicyRun;
import io.pdgateway.routingsim.workload.Workload;
import io.pdgateway.routingsim.workload.WorkloadShape;
import io.pdgateway.workload.Slo;
import java.util.ArrayList;
import java.util.List;

/**
 * The highest arrival rate a policy sustains: the largest rate scale of the workload at which at least
 * {@link #ATTAINMENT} of the requests meet the SLO (DistServe's goodput definition). Doubling or halving brackets the
 * limit, then bisection narrows it to {@link #PRECISION}. Each probe is a whole simulation of the workload at that
 * rate on a fresh cluster, so the answer is deterministic for a seed; attainment is assumed to fall as the rate rises.
 */
public final class MaxRateSearch {
    /** DistServe: a policy sustains a rate when at least 90 % of its requests meet the SLO. */
    public static final double ATTAINMENT = 0.9;
    /** Stop when the bracket is this tight relative to its lower end: 2 %. */
    static final double PRECISION = 0.02;
    /** Bracketing gives up beyond 2^10 either way: a policy that sustains 1,000x the trace is not limited by load. */
    static final int MAX_BRACKET_STEPS = 10;

    private final ClusterShape shape;
    private final Workload base;
    private final long seed;
    private final Slo slo;

    /** @param base the workload at rate scale 1 (its window and caps already applied) */
    public MaxRateSearch(ClusterShape shape, Workload base, long seed, Slo slo) {
        this.shape = shape;
        this.base = base;
        this.seed = seed;
        this.slo = slo;
    }

    /** One probe: the policy at one rate scale. */
    public record Probe(double rateScale, double requestsPerSecond, PolicyReport report) {
        boolean sustained() {
            return report.attainment() >= ATTAINMENT && report.violations().isEmpty();
        }
    }

    /** The search's answer: the highest sustained probe (null when even the lowest failed) and every probe made. */
    public record Result(PolicySpec policy, Probe best, List<Probe> probes) {
        public double maxRequestsPerSecond() {
            return best == null ? 0 : best.requestsPerSecond();
        }
    }

    public Result search(PolicySpec spec, double startScale) {
        List<Probe> probes = new ArrayList<>();
        Probe start = probe(spec, startScale, probes);
        Probe low;
        Probe high;
        if (start.sustained()) {
            low = start;
            high = null;
            for (int i = 0; i < MAX_BRACKET_STEPS && high == null; i++) {
                Probe next = probe(spec, low.rateScale() * 2, probes);
                if (next.sustained()) {
                    low = next;
                } else {
                    high = next;
                }
            }
        } else {
            high = start;
            low = null;
            for (int i = 0; i < MAX_BRACKET_STEPS && low == null; i++) {
                Probe next = probe(spec, high.rateScale() / 2, probes);
                if (next.sustained()) {
                    low = next;
                } else {
                    high = next;
                }
            }
        }
        while (low != null && high != null && high.rateScale() - low.rateScale() > PRECISION * low.rateScale()) {
            Probe middle = probe(spec, (low.rateScale() + high.rateScale()) / 2, probes);
            if (middle.sustained()) {
                low = middle;
            } else {
                high = middle;
            }
        }
        return new Result(spec, low, List.copyOf(probes));
    }

    private Probe probe(PolicySpec spec, double scale, List<Probe> probes) {
        Workload scaled = new WorkloadShape(scale, 0, 0, 0, 0).apply(base, seed);
        PolicyReport report = PolicyReport.of(new PolicyRun(shape, scaled, spec, seed, slo).run(), slo,
                scaled.spanNanos());
        double seconds = scaled.spanNanos() / 1e9;
        Probe probe = new Probe(scale, seconds > 0 ? scaled.requests().size() / seconds : 0, report);
        probes.add(probe);
        return probe;
    }
}
