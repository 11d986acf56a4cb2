package io.pdgateway.routingsim.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.routing.DecisionKind;
import io.pdgateway.routingsim.policy.PolicyRegistry;
import io.pdgateway.routingsim.policy.PolicySpec;
import io.pdgateway.routingsim.workload.Workload;
import io.pdgateway.workload.Slo;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One small end-to-end simulation per registered policy: every request is served exactly once, the PD path and the
 * bucket fallback both happen, latencies are positive and plausible, and the end-of-run invariants hold (ledgers at
 * zero, engines idle).
 */
class PolicyRunTest {
    private static final Workload CHAT = SimFixtures.chat(3);

    static Stream<String> policies() {
        return PolicyRegistry.DEFAULT.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void smallCluster_everyRequestServedOnce_invariantsHold(String name) {
        PolicySpec spec = PolicyRegistry.resolve(name);
        RunResult result = new PolicyRun(SimFixtures.smallCluster(), CHAT, spec, 42, Slo.INTERACTIVE).run();

        assertThat(result.violations()).isEmpty();
        assertThat(result.records()).hasSize(CHAT.requests().size());
        assertThat(result.records()).noneMatch(RequestRecord::failed);
        assertThat(result.records()).anyMatch(r -> r.kind() == DecisionKind.PD_PAIR);
        // Documents of 6,000 tokens and up are outside every roleset's bucket: the standard pod serves them.
        assertThat(result.records()).filteredOn(r -> r.promptTokens() > 4096).isNotEmpty()
                .allMatch(r -> r.fallback() && r.prefillPod() == null);
        for (RequestRecord r : result.records()) {
            // At least a lone request's time: the a - d overhead and one step.
            assertThat(r.ttftMillis()).as("TTFT of %d", r.index()).isGreaterThan(19);
            if (r.outputTokens() > 1) {
                assertThat(r.tpotMillis()).as("TPOT of %d", r.index()).isGreaterThanOrEqualTo(7.2);
            }
        }
    }
}
