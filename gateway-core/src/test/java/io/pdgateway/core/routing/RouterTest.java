package io.pdgateway.core.routing;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.cache.CachedPrefixes;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Non-PD strategies only use pods that can serve alone; mixed engines are refused; ties break at random but
 * repeat under a seed; prefix-cache follows the prefix until the load spread is too wide; session-affinity sticks.
 */
class RouterTest {
    private final Router router = Contexts.router(false);

    private static RoutingContext context(String strategy, LoadView load, long seed) {
        return Contexts.context(strategy, 0, load, Contexts.DEFAULT_KNOBS, new long[0], null, null, seed);
    }

    @Test
    void leastRequest_skipsPrefillAndDecodePods() {
        ModelPods model = ModelPods.of("m", List.of(pod("p").prefill("rs").build(), pod("d").decode("rs").build(),
                pod("a").build(), pod("b").build()));
        RouteDecision decision = router.route(context("least-request", new FixedLoad().running("a", 3), 1).withModel(model));
        assertThat(decision.verdict()).isEqualTo(Verdict.SINGLE_POD_SELECTED);
        assertThat(decision.target().name()).isEqualTo("b");
    }

    @Test
    void random_onlyPdPods_noStandalonePod() {
        ModelPods model = ModelPods.of("m", List.of(pod("p").prefill("rs").build(), pod("d").decode("rs").build()));
        RouteDecision decision = router.route(context("random", LoadView.IDLE, 1).withModel(model));
        assertThat(decision.verdict()).isEqualTo(Verdict.NO_STANDALONE_POD);
        assertThat(decision.verdict().httpStatus()).isEqualTo(503);
    }

    @Test
    void mixedEngines_refused() {
        ModelPods model = ModelPods.of("m", List.of(pod("p").prefill("rs").engine("vllm").build(),
                pod("d").decode("rs").engine("sglang").build()));
        RouteDecision decision = router.route(context("pd", LoadView.IDLE, 1).withModel(model));
        assertThat(decision.verdict()).isEqualTo(Verdict.ENGINE_MISMATCH);
        assertThat(decision.reason()).contains("inconsistent LLM engines");
    }

    @Test
    void equalRolesets_tiesSpreadOverBoth_andRepeatUnderSeed() {
        ModelPods model = ModelPods.of("m", List.of(pod("p1").prefill("rs1").build(), pod("d1").decode("rs1").build(),
                pod("p2").prefill("rs2").build(), pod("d2").decode("rs2").build()));
        Set<String> seen = new HashSet<>();
        for (int seed = 0; seed < 50; seed++) {
            seen.add(router.route(context("pd", LoadView.IDLE, seed).withModel(model)).target().name());
        }
        assertThat(seen).containsExactlyInAnyOrder("d1", "d2");
        String first = router.route(context("pd", LoadView.IDLE, 9).withModel(model)).target().name();
        assertThat(router.route(context("pd", LoadView.IDLE, 9).withModel(model)).target().name()).isEqualTo(first);
    }

    @Test
    void prefixCache_followsPrefix_untilSpreadTooWide() {
        ModelPods model = ModelPods.of("m", List.of(pod("a").build(), pod("b").build()));
        long[] hashes = CachedPrefixes.prompt(4, 1);
        CachedPrefixes caches = new CachedPrefixes().holding(model.pods().get(1), hashes, 4);
        // b holds the prefix; running 3 vs 0 is within the spread of 8 → b.
        RoutingContext holding = Contexts.context("prefix-cache", 0, new FixedLoad().running("b", 3), Contexts.DEFAULT_KNOBS,
                hashes, null, caches.lookup(hashes, model), 1);
        assertThat(router.route(holding.withModel(model)).target().name()).isEqualTo("b");
        // 9 vs 0 is wider than 8 → least-request wins over the prefix.
        RoutingContext spread = Contexts.context("prefix-cache", 0, new FixedLoad().running("b", 9), Contexts.DEFAULT_KNOBS,
                hashes, null, caches.lookup(hashes, model), 1);
        assertThat(router.route(spread.withModel(model)).target().name()).isEqualTo("a");
    }

    @Test
    void sessionAffinity_sameKeySamePod_keysSpread() {
        ModelPods model = ModelPods.of("m", List.of(pod("a").build(), pod("b").build(), pod("c").build()));
        Set<String> targets = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            String key = "session-" + i;
            String first = router.route(Contexts.context("session-affinity", 0, LoadView.IDLE, Contexts.DEFAULT_KNOBS,
                    new long[0], key, null, i).withModel(model)).target().name();
            String again = router.route(Contexts.context("session-affinity", 0, LoadView.IDLE, Contexts.DEFAULT_KNOBS,
                    new long[0], key, null, i + 100).withModel(model)).target().name();
            assertThat(again).as(key).isEqualTo(first);
            targets.add(first);
        }
        assertThat(targets).containsExactlyInAnyOrder("a", "b", "c");
    }
}
