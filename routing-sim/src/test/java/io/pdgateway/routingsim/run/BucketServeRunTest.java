package io.pdgateway.routingsim.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.routing.Step;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.routingsim.RoutingSimulator;
import io.pdgateway.routingsim.cluster.ClusterShape;
import io.pdgateway.routingsim.cluster.ClusterShapeReader;
import io.pdgateway.routingsim.policy.PolicyRegistry;
import io.pdgateway.routingsim.report.PolicyReport;
import io.pdgateway.routingsim.report.SimulationReport;
import io.pdgateway.routingsim.report.TableWriter;
import io.pdgateway.workload.Slo;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * AIBRIX_BUCKET_SERVE in the simulator: on bucketed rolesets the run with bucket serving routes differently from the
 * run without, and the table says by which step.
 */
class BucketServeRunTest {
    private static ClusterShape bucketedRolesets() throws IOException {
        return ClusterShapeReader.parse("""
                gateway:
                  AIBRIX_PROMPT_LENGTH_BUCKETING: "true"
                rolesets:
                  - {name: short, replicas: 3, bucket: [0, 4096]}
                  - {name: long, replicas: 1, bucket: [4097, 0]}
                standard:
                  - {name: std, replicas: 1}
                """, "bucketed rolesets");
    }

    private static SimulationReport run(ClusterShape shape) {
        return RoutingSimulator.run(shape, SimFixtures.chat(3), PolicyRegistry.resolve(List.of("pd")), 3,
                Slo.INTERACTIVE, 1, "test", line -> { });
    }

    @Test
    void bucketServe_routesByBandAndSaysSo() throws IOException {
        SimulationReport without = run(bucketedRolesets());
        SimulationReport with = run(bucketedRolesets().withGatewayEnv(Map.of(SpecEnv.BUCKET_SERVE, "true")));
        PolicyReport plain = without.policies().get(0);
        PolicyReport served = with.policies().get(0);

        assertThat(plain.steps().keySet()).noneMatch(step -> step.contains(Step.BUCKET_SERVE));
        int banded = served.steps().entrySet().stream().filter(e -> e.getKey().contains(Step.BUCKET_SERVE))
                .mapToInt(Map.Entry::getValue).sum();
        assertThat(banded).as("decisions made by bucket serving, of %s", served.steps()).isGreaterThan(50);
        assertThat(TableWriter.write(with)).contains(Step.BUCKET_SERVE);
        assertThat(TableWriter.write(with)).isNotEqualTo(TableWriter.write(without));
        assertThat(served.requests()).isEqualTo(plain.requests());
        assertThat(with.invariantsHold()).isTrue();
    }
}
