package io.pdgateway.routingsim.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.routingsim.RoutingSimulator;
import io.pdgateway.routingsim.policy.PolicyRegistry;
import io.pdgateway.routingsim.report.TableWriter;
import io.pdgateway.workload.Slo;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The same seed gives the same table, whether the policies ran one at a time or side by side. */
class DeterminismTest {
    private static final List<String> POLICIES = List.of("round-robin", "pd", "pd:token_load:token_load", "oracle");

    private static String table(long seed, int threads) {
        return TableWriter.write(RoutingSimulator.run(SimFixtures.smallCluster(), SimFixtures.chat(seed),
                PolicyRegistry.resolve(POLICIES), seed, Slo.INTERACTIVE, threads, "test", line -> { }));
    }

    @Test
    void sameSeed_sameTable_anyThreadCount() {
        String first = table(11, 1);
        assertThat(table(11, 2)).isEqualTo(first);
        assertThat(table(11, 4)).isEqualTo(first);
    }

    @Test
    void otherSeed_otherTable() {
        assertThat(table(12, 2)).isNotEqualTo(table(11, 2));
    }
}
