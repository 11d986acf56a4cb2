package io.pdgateway.core.routing;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Routing a request again without the pods that already failed it (the edge's prefill retry): the excluded pods never
 * come back, a roleset left without a prefill pod is skipped, the standard-pod fallback still applies, nothing left
 * means no decision, and a first decision (nothing excluded) is unchanged. A body no pair can carry (a batch the
 * engine's hand-off refuses) leaves every pair out the same way. Least-request on both sides, so each row's
 * pick follows from the counts in its comment.
 */
class ExcludedPodsTest {

    record Scenario(String name, boolean bucketing, List<Pod> pods, FixedLoad load, List<String> excluded,
            Verdict verdict, String prefill, String target) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Scenario> scenarios() {
        return Stream.of(
                // rs1 would win (p1 idle, p2 has 5 in flight), but p1 failed: rs1 has no prefill left → rs2.
                new Scenario("failed prefill_other roleset", false,
                        List.of(pod("p1").prefill("rs1").build(), pod("d1").decode("rs1").build(),
                                pod("p2").prefill("rs2").build(), pod("d2").decode("rs2").build()),
                        new FixedLoad().prefilling("p2", 5), List.of("p1"), Verdict.PD_PAIR_SELECTED, "p2", "d2"),
                // Two prefill pods in one roleset: excluding the idle p1 leaves p2 (3 in flight) with the same decode.
                new Scenario("second prefill same roleset_new pair", false,
                        List.of(pod("p1").prefill("rs").build(), pod("p2").prefill("rs").build(),
                                pod("d").decode("rs").build()),
                        new FixedLoad().prefilling("p2", 3), List.of("p1"), Verdict.PD_PAIR_SELECTED, "p2", "d"),
                // The only pair's prefill failed, a standard pod covers the prompt (bucketing on) → the standard pod.
                new Scenario("only pair failed_standard pod", true,
                        List.of(pod("p").prefill("rs").build(), pod("d").decode("rs").build(),
                                pod("s").standard(0, 0).build()),
                        new FixedLoad(), List.of("p"), Verdict.STANDARD_FALLBACK, null, "s"),
                // The only pair's prefill failed and nothing else serves → no decision (the edge keeps the failure).
                new Scenario("only pair failed_nothing left", false,
                        List.of(pod("p").prefill("rs").build(), pod("d").decode("rs").build()),
                        new FixedLoad(), List.of("p"), Verdict.NO_COMPLETE_PAIR, null, null),
                // Excluded pods accumulate: p1 and p2 both failed → rs3.
                new Scenario("two excluded_third roleset", false,
                        List.of(pod("p1").prefill("rs1").build(), pod("d1").decode("rs1").build(),
                                pod("p2").prefill("rs2").build(), pod("d2").decode("rs2").build(),
                                pod("p3").prefill("rs3").build(), pod("d3").decode("rs3").build()),
                        new FixedLoad().prefilling("p3", 7), List.of("p1", "p2"), Verdict.PD_PAIR_SELECTED, "p3", "d3"),
                // Nothing excluded: the first decision as ever (p1 idle beats p2 with 5).
                new Scenario("nothing excluded_unchanged", false,
                        List.of(pod("p1").prefill("rs1").build(), pod("d1").decode("rs1").build(),
                                pod("p2").prefill("rs2").build(), pod("d2").decode("rs2").build()),
                        new FixedLoad().prefilling("p2", 5), List.of(), Verdict.PD_PAIR_SELECTED, "p1", "d1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void cascade(Scenario s) {
        ModelPods model = ModelPods.of("m", s.pods());
        RoutingContext first = Contexts.pd(10, s.load(), Map.of("prefillScorePolicy", "least_request",
                "decodeScorePolicy", "least_request"));
        RouteRequest request = first.request();
        for (String name : s.excluded()) {
            request = request.excluding(byName(model, name));
        }
        RoutingContext context = new RoutingContext(request, model, first.load(), first.prefix(), first.random(),
                first.stddevFactor());

        RouteDecision decision = Contexts.router(s.bucketing()).route(context);

        assertThat(decision.verdict()).as(decision.reason()).isEqualTo(s.verdict());
        assertThat(decision.prefill() == null ? null : decision.prefill().name()).isEqualTo(s.prefill());
        assertThat(decision.target() == null ? null : decision.target().name()).isEqualTo(s.target());
    }

    @Test
    void bodyNoPairCarries_standardPodServesIt_elseNoDecisionSayingWhy() {
        List<Pod> pairs = List.of(pod("p").prefill("rs").build(), pod("d").decode("rs").build());
        ModelPods withStandard = ModelPods.of("m", Stream.concat(pairs.stream(), Stream.of(pod("s").standard(0, 0)
                .build())).toList());
        // The pair is idle and the standard pod busy: a body a pair can carry goes to the pair.
        FixedLoad load = new FixedLoad().running("s", 9);
        RoutingContext carried = Contexts.pd(10, load, Map.of());
        assertThat(Contexts.router(true).route(within(carried, carried.request(), withStandard)).prefill().name())
                .isEqualTo("p");

        RouteRequest batch = withoutPairs(carried.request(), "a batch of 2 prompts");
        RouteDecision decision = Contexts.router(true).route(within(carried, batch, withStandard));
        assertThat(decision.verdict()).isEqualTo(Verdict.STANDARD_FALLBACK);
        assertThat(decision.target().name()).isEqualTo("s");
        assertThat(decision.reason()).contains("no prefill/decode pair can carry the body (a batch of 2 prompts)");
        // A retry without a failed pod keeps the refusal.
        assertThat(batch.excluding(withStandard.pods().get(0)).pairRefusal()).isEqualTo("a batch of 2 prompts");

        RouteDecision none = Contexts.router(true).route(within(carried, batch, ModelPods.of("m", pairs)));
        assertThat(none.verdict()).isEqualTo(Verdict.NO_COMPLETE_PAIR);
        assertThat(none.reason()).contains("a batch of 2 prompts").contains("no standard pod is available");
    }

    private static RouteRequest withoutPairs(RouteRequest r, String why) {
        return new RouteRequest(r.model(), r.requestId(), r.promptTokens(), r.strategy(), r.profile(), r.knobs(),
                r.prefixHashes(), r.sessionKey(), r.excludedPods(), why);
    }

    private static RoutingContext within(RoutingContext from, RouteRequest request, ModelPods model) {
        return new RoutingContext(request, model, from.load(), from.prefix(), from.random(), from.stddevFactor());
    }

    @Test
    void nonPdStrategy_excludedStandalonePodNeverPicked() {
        ModelPods model = ModelPods.of("m", List.of(pod("a").build(), pod("b").build()));
        RouteRequest request = Contexts.context("random", 0, LoadView.IDLE, Contexts.DEFAULT_KNOBS, new long[0], null,
                null, 1).request().excluding(byName(model, "a"));
        for (int seed = 0; seed < 20; seed++) {
            RoutingContext context = new RoutingContext(request, model, LoadView.IDLE, null,
                    new java.util.SplittableRandom(seed), 1);
            assertThat(Contexts.router(false).route(context).target().name()).isEqualTo("b");
        }
    }

    @Test
    void excluding_isAPureCopy() {
        ModelPods model = ModelPods.of("m", List.of(pod("a").build()));
        RouteRequest first = Contexts.pd(10, LoadView.IDLE, Map.of()).request();
        RouteRequest again = first.excluding(model.pods().get(0));
        assertThat(first.excludedPods()).isEmpty();
        assertThat(again.excludedPods()).isEqualTo(Set.of("default/a"));
        assertThat(again.allows(model.pods().get(0))).isFalse();
    }

    private static Pod byName(ModelPods model, String name) {
        return model.pods().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }
}
