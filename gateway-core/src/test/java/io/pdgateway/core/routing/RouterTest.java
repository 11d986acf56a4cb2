package io.pdgateway.core.routing;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.ModelPods;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Non-PD strategies only use pods that can serve alone; mixed engines are refused; ties break at random. */
class RouterTest {
    private final Router router = new Router(PdCascade.standard(false));

    @Test
    void leastRequest_skipsPrefillAndDecodePods() {
        ModelPods model = ModelPods.of("m", List.of(pod("p").prefill("rs").build(), pod("d").decode("rs").build(),
                pod("a").build(), pod("b").build()));
        RouteDecision decision = router.route(new RouteRequest("m", "r", 0, "least-request", null), model,
                new FixedLoad().running("a", 3), new SplittableRandom(1));
        assertThat(decision.verdict()).isEqualTo(Verdict.SINGLE_POD_SELECTED);
        assertThat(decision.target().name()).isEqualTo("b");
    }

    @Test
    void random_onlyPdPods_noStandalonePod() {
        ModelPods model = ModelPods.of("m", List.of(pod("p").prefill("rs").build(), pod("d").decode("rs").build()));
        RouteDecision decision = router.route(new RouteRequest("m", "r", 0, "random", null), model, LoadView.IDLE,
                new SplittableRandom(1));
        assertThat(decision.verdict()).isEqualTo(Verdict.NO_STANDALONE_POD);
        assertThat(decision.verdict().httpStatus()).isEqualTo(503);
    }

    @Test
    void mixedEngines_refused() {
        ModelPods model = ModelPods.of("m", List.of(pod("p").prefill("rs").engine("vllm").build(),
                pod("d").decode("rs").engine("sglang").build()));
        RouteDecision decision = router.route(new RouteRequest("m", "r", 0, "pd", null), model, LoadView.IDLE,
                new SplittableRandom(1));
        assertThat(decision.verdict()).isEqualTo(Verdict.ENGINE_MISMATCH);
        assertThat(decision.reason()).contains("inconsistent LLM engines");
    }

    @Test
    void equalRolesets_tiesSpreadOverBoth_andRepeatUnderSeed() {
        ModelPods model = ModelPods.of("m", List.of(pod("p1").prefill("rs1").build(), pod("d1").decode("rs1").build(),
                pod("p2").prefill("rs2").build(), pod("d2").decode("rs2").build()));
        Set<String> seen = new HashSet<>();
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 50; i++) {
            seen.add(router.route(new RouteRequest("m", "r", 0, "pd", null), model, LoadView.IDLE, random).target().name());
        }
        assertThat(seen).containsExactlyInAnyOrder("d1", "d2");
        String first = router.route(new RouteRequest("m", "r", 0, "pd", null), model, LoadView.IDLE,
                new SplittableRandom(9)).target().name();
        String again = router.route(new RouteRequest("m", "r", 0, "pd", null), model, LoadView.IDLE,
                new SplittableRandom(9)).target().name();
        assertThat(again).isEqualTo(first);
    }
}
