package io.pdgateway.core.routing;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.bucket.Band;
import io.pdgateway.core.bucket.BucketPlan;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Spec step 2b: the plan narrows to the banded roleset only when it still has both sides after the fast paths. */
class BucketServeStepTest {
    private static final List<Pod> PODS = List.of(pod("p1").prefill("rs1").bucket(0, 1000).build(),
            pod("d1").decode("rs1").bucket(0, 1000).build(), pod("p2").prefill("rs2").bucket(0, 1000).build(),
            pod("d2").decode("rs2").bucket(0, 1000).build());
    /** Lengths 0..99 banded to rs2, 100..1000 to rs1. */
    private static final BucketPlan PLAN = new BucketPlan(Map.of("m", List.of(new Band("rs2", 0, 99),
            new Band("rs1", 100, 1000))));
    private static final Map<String, Object> LEAST = Map.of("prefillScorePolicy", "least_request",
            "decodeScorePolicy", "least_request");

    private static RouteDecision route(boolean bucketing, int promptTokens, FixedLoad load, BucketPlan plan) {
        RoutingContext context = new RoutingContext(new RouteRequest("m", "r", promptTokens, Strategy.PD, null,
                Contexts.knobs(LEAST), new long[0], null), ModelPods.of("m", PODS), load, null, new SplittableRandom(1),
                1, plan);
        return Contexts.router(bucketing, true).route(context);
    }

    @Test
    void bandedRoleset_winsOverALessLoadedOne() {
        // rs2 is busier (decode 3 running vs 0), but length 50 is banded to rs2.
        RouteDecision decision = route(true, 50, new FixedLoad().running("d2", 3).running("d1", 0), PLAN);
        assertThat(decision.target().name()).isEqualTo("d2");
        assertThat(decision.step()).isEqualTo("bucket-serve,final-score");
    }

    @Test
    void fastPathNarrowedElsewhere_planStandsAside() {
        // Prefill spread 20 > 16 picks p1 (rs1); the band (rs2) is no longer a candidate → routing as without plan.
        RouteDecision decision = route(true, 50, new FixedLoad().prefilling("p2", 20), PLAN);
        assertThat(decision.target().name()).isEqualTo("d1");
        assertThat(decision.step()).isEqualTo("prefill-imbalance,final-score");
    }

    @Test
    void noBandOrBucketingOff_routesAsWithoutPlan() {
        FixedLoad load = new FixedLoad().running("d2", 3).running("d1", 0);
        BucketPlan other = new BucketPlan(Map.of("other-model", List.of(new Band("rs2", 0, 1000))));
        assertThat(route(true, 50, load, other).target().name()).isEqualTo("d1");
        assertThat(route(false, 50, load, PLAN).target().name()).isEqualTo("d1");
        assertThat(route(true, 50, load, null).step()).isEqualTo("final-score");
    }
}
