package io.pdgateway.routingsim.run;

import io.pdgateway.routingsim.policy.PolicySpec;
import java.util.List;

/**
 * One policy's run over the workload.
 *
 * @param strategy the routing strategy the gateway resolved for the requests
 * @param events events the virtual clock fired
 * @param wallNanos real time the run took
 * @param violations end-of-run invariants that failed; empty when every request finished once and ledgers are at zero
 * @param warnings settings or profile values the gateway ignored
 */
public record RunResult(PolicySpec policy, String strategy, List<RequestRecord> records, List<PodSummary> pods,
        long events, long wallNanos, List<String> violations, List<String> warnings) {

    public RunResult {
        records = List.copyOf(records);
        pods = List.copyOf(pods);
        violations = List.copyOf(violations);
        warnings = List.copyOf(warnings);
    }
}
