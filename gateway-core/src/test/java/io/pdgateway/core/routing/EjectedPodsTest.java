package io.pdgateway.core.routing;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ejected-pods filter in the cascade: outlier detection's ejected pods are never picked while anything else can
 * serve, a roleset that lost its only decode pod drops out, and when everything is ejected the request is routed over
 * all pods rather than refused (Envoy's panic mode). Least-request on both sides, so each row's pick follows from the
 * counts in its comment.
 */
class EjectedPodsTest {

    record Scenario(String name, boolean bucketing, List<Pod> pods, FixedLoad load, Verdict verdict, String prefill,
            String target) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Scenario> scenarios() {
        return Stream.of(
                // p1 is idle and p2 has 9 in flight, so p1 would win; it is ejected → rs2.
                new Scenario("idle dead prefill_live busy one wins", false,
                        List.of(pod("p1").prefill("rs1").build(), pod("d1").decode("rs1").build(),
                                pod("p2").prefill("rs2").build(), pod("d2").decode("rs2").build()),
                        new FixedLoad().prefilling("p2", 9).ejecting("p1"), Verdict.PD_PAIR_SELECTED, "p2", "d2"),
                // rs1's only decode pod is ejected: rs1 is incomplete, rs2 serves though its prefill is busier.
                new Scenario("dead decode_roleset dropped", false,
                        List.of(pod("p1").prefill("rs1").build(), pod("d1").decode("rs1").build(),
                                pod("p2").prefill("rs2").build(), pod("d2").decode("rs2").build()),
                        new FixedLoad().prefilling("p2", 9).ejecting("d1"), Verdict.PD_PAIR_SELECTED, "p2", "d2"),
                // Both decodes of rs share the prefill; d1 (idle) ejected → d2 (4 running).
                new Scenario("one of two decodes dead_other decode", false,
                        List.of(pod("p").prefill("rs").build(), pod("d1").decode("rs").build(),
                                pod("d2").decode("rs").build()),
                        new FixedLoad().running("d2", 4).ejecting("d1"), Verdict.PD_PAIR_SELECTED, "p", "d2"),
                // The only pair is dead, a standard pod covers the prompt (bucketing on) → the standard pod.
                new Scenario("pair dead_standard pod", true,
                        List.of(pod("p").prefill("rs").build(), pod("d").decode("rs").build(),
                                pod("s").standard(0, 0).build()),
                        new FixedLoad().ejecting("p"), Verdict.STANDARD_FALLBACK, null, "s"),
                // Everything ejected: panic, route over all of them as if none were (p1 idle beats p2 with 2).
                new Scenario("all ejected_panic routes anyway", false,
                        List.of(pod("p1").prefill("rs1").build(), pod("d1").decode("rs1").build(),
                                pod("p2").prefill("rs2").build(), pod("d2").decode("rs2").build()),
                        new FixedLoad().prefilling("p2", 2).ejecting("p1").ejecting("d1").ejecting("p2")
                                .ejecting("d2"), Verdict.PD_PAIR_SELECTED, "p1", "d1"),
                // Nothing ejected: unchanged (p1 idle beats p2 with 5).
                new Scenario("nothing ejected_unchanged", false,
                        List.of(pod("p1").prefill("rs1").build(), pod("d1").decode("rs1").build(),
                                pod("p2").prefill("rs2").build(), pod("d2").decode("rs2").build()),
                        new FixedLoad().prefilling("p2", 5), Verdict.PD_PAIR_SELECTED, "p1", "d1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void cascade(Scenario s) {
        ModelPods model = ModelPods.of("m", s.pods());
        RoutingContext first = Contexts.pd(10, s.load(), Map.of("prefillScorePolicy", "least_request",
                "decodeScorePolicy", "least_request"));
        RoutingContext context = new RoutingContext(first.request(), model, first.load(), first.prefix(),
                first.random(), first.stddevFactor());

        RouteDecision decision = Contexts.router(s.bucketing()).route(context);

        assertThat(decision.verdict()).as(decision.reason()).isEqualTo(s.verdict());
        assertThat(decision.prefill() == null ? null : decision.prefill().name()).isEqualTo(s.prefill());
        assertThat(decision.target() == null ? null : decision.target().name()).isEqualTo(s.target());
    }

    @Test
    void nonPdStrategy_ejectedPodNeverPicked_unlessAllAre() {
        ModelPods model = ModelPods.of("m", List.of(pod("a").build(), pod("b").build()));
        RouteRequest request = Contexts.context("random", 0, LoadView.IDLE, Contexts.DEFAULT_KNOBS, new long[0], null,
                null, 1).request();
        for (int seed = 0; seed < 20; seed++) {
            RoutingContext oneDead = new RoutingContext(request, model, new FixedLoad().ejecting("a"), null,
                    new SplittableRandom(seed), 1);
            assertThat(Contexts.router(false).route(oneDead).target().name()).isEqualTo("b");
            RoutingContext allDead = new RoutingContext(request, model, new FixedLoad().ejecting("a").ejecting("b"),
                    null, new SplittableRandom(seed), 1);
            assertThat(Contexts.router(false).route(allDead).verdict().routed()).isTrue();
        }
    }
}
