package io.pdgateway.core.routing;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pd strategy end to end over the pure core: roleset completeness, bucketing with standard-pod fallback, and the
 * least-request pair pick. Rows port the upstream scenarios (reference §8) where they apply.
 */
class PdCascadeTest {

    record Scenario(String name, boolean bucketing, List<Pod> pods, FixedLoad load, int promptTokens,
            Verdict verdict, String prefill, String target) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Scenario> scenarios() {
        return Stream.of(
                // Upstream #1: one complete roleset → its pair.
                new Scenario("complete roleset_pair", false,
                        List.of(pod("p").prefill("rs").build(), pod("d").decode("rs").build()),
                        new FixedLoad(), 10, Verdict.PD_PAIR_SELECTED, "p", "d"),
                // Upstream #5: only a decode pod in a roleset → the roleset is skipped, nothing to route.
                new Scenario("decode only_no pair", false, List.of(pod("d").decode("rs").build()),
                        new FixedLoad(), 10, Verdict.NO_COMPLETE_PAIR, null, null),
                // Upstream #3: pods without roleset-name are never PD candidates.
                new Scenario("no roleset label_ignored", false,
                        List.of(pod("p").prefill(null).build(), pod("d").decode("rs").build()),
                        new FixedLoad(), 10, Verdict.NO_COMPLETE_PAIR, null, null),
                // rs1: prefill 3 in flight, decode 1 running; rs2: 0 and 1. maxP = 3, maxD = 1:
                // rs1 = 3/3 + 1/1 = 2, rs2 = 0/3 + 1/1 = 1 → rs2.
                new Scenario("busier prefill_other roleset", false,
                        List.of(pod("p1").prefill("rs1").build(), pod("d1").decode("rs1").build(),
                                pod("p2").prefill("rs2").build(), pod("d2").decode("rs2").build()),
                        new FixedLoad().prefilling("p1", 3).running("d1", 1).running("d2", 1), 10,
                        Verdict.PD_PAIR_SELECTED, "p2", "d2"),
                // Within one roleset the least-loaded pod of each side is kept: p1 (2) vs p2 (0), d1 (0) vs d2 (5).
                new Scenario("two pods per side_least loaded each", false,
                        List.of(pod("p1").prefill("rs").build(), pod("p2").prefill("rs").build(),
                                pod("d1").decode("rs").build(), pod("d2").decode("rs").build()),
                        new FixedLoad().prefilling("p1", 2).running("d2", 5), 10,
                        Verdict.PD_PAIR_SELECTED, "p2", "d1"),
                // Upstream #23: the PD bucket is [0,1], the prompt has 2 tokens, a standard pod covers it.
                new Scenario("outside bucket_standard pod", true,
                        List.of(pod("p").prefill("rs").bucket(0, 1).build(), pod("d").decode("rs").bucket(0, 1).build(),
                                pod("s").standard(0, 1_000_000).build()),
                        new FixedLoad(), 2, Verdict.STANDARD_FALLBACK, null, "s"),
                // Upstream #23 without the standard pod: no bucket matches → 503.
                new Scenario("outside bucket no standard_503", true,
                        List.of(pod("p").prefill("rs").bucket(0, 1).build(), pod("d").decode("rs").bucket(0, 1).build()),
                        new FixedLoad(), 2, Verdict.NO_BUCKET_MATCH, null, null),
                // Upstream #24: the medium roleset lost its decode pod; prompt 20 falls back to the standard pod
                // even though the short roleset is complete (no cross-bucket fallback).
                new Scenario("matching roleset incomplete_standard pod", true,
                        List.of(pod("ps").prefill("short").bucket(0, 15).build(),
                                pod("ds").decode("short").bucket(0, 15).build(),
                                pod("pm").prefill("medium").bucket(16, 32).build(),
                                pod("s").standard(0, 0).build()),
                        new FixedLoad(), 20, Verdict.STANDARD_FALLBACK, null, "s"),
                // Bucketing: a roleset where only the prefill covers the prompt is skipped; the other wins.
                new Scenario("half matching roleset_skipped", true,
                        List.of(pod("p1").prefill("rs1").bucket(0, 100).build(),
                                pod("d1").decode("rs1").bucket(200, 300).build(),
                                pod("p2").prefill("rs2").bucket(0, 100).build(),
                                pod("d2").decode("rs2").bucket(0, 100).build()),
                        new FixedLoad().prefilling("p2", 9).running("d2", 9), 50,
                        Verdict.PD_PAIR_SELECTED, "p2", "d2"),
                // Without bucketing, standard pods are not candidates (spec "Step 3"): incomplete roleset → 503.
                new Scenario("bucketing off_standard pod unused", false,
                        List.of(pod("p").prefill("rs").build(), pod("s").standard(0, 0).build()),
                        new FixedLoad(), 5, Verdict.NO_COMPLETE_PAIR, null, null),
                // Two standard pods: the one with fewer running requests serves.
                new Scenario("two standard pods_least running", true,
                        List.of(pod("s1").standard(0, 0).build(), pod("s2").standard(0, 0).build()),
                        new FixedLoad().running("s1", 4).running("s2", 1), 5,
                        Verdict.STANDARD_FALLBACK, null, "s2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void cascade(Scenario s) {
        Router router = Contexts.router(s.bucketing());
        RouteDecision decision = router.route(Contexts.pd(s.promptTokens(), s.load(), java.util.Map.of(
                "prefillScorePolicy", "least_request", "decodeScorePolicy", "least_request")).withModel(ModelPods.of("m", s.pods())));
        assertThat(decision.verdict()).as(decision.reason()).isEqualTo(s.verdict());
        assertThat(decision.prefill() == null ? null : decision.prefill().name()).isEqualTo(s.prefill());
        assertThat(decision.target() == null ? null : decision.target().name()).isEqualTo(s.target());
    }
}
