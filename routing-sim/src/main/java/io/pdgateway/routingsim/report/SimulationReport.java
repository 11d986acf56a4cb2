package io.pdgateway.routingsim.report;

import io.pdgateway.workload.Slo;
import java.util.List;

/**
 * Everything one simulator run reports: what was replayed on what, under which SLO, and one line per policy.
 *
 * @param command the command line that reproduces the run
 */
public record SimulationReport(String workload, String workloadSource, int requests, double spanSeconds, String cluster,
        long seed, Slo slo, String command, List<PolicyReport> policies) {

    public SimulationReport {
        policies = List.copyOf(policies);
    }

    public boolean invariantsHold() {
        return policies.stream().allMatch(PolicyReport::invariantsHold);
    }
}
