package io.pdgateway.core.routing;

import static io.pdgateway.core.PodBuilder.pod;
import static io.pdgateway.core.routing.Contexts.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.pdgateway.core.bucket.Band;
import io.pdgateway.core.bucket.BucketPlan;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.core.model.Roleset;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every routing stage keeps, over every stage instance production uses: each filter, fast path, scorer
 * and the pair picker of {@code PdCascade.of(...)} with bucketing off, on, and on with adaptive bucket serving; every
 * {@link PrefillPolicy} and {@link DecodePolicy} scorer; every {@link Strategy}'s pod picker. Each stage runs over
 * several worlds (idle ties, imbalanced and overloaded pods, an excluded pod and a bucket band, standard pods only)
 * under every prefill/decode policy pair, and each assertion names the stage and the world. Properties:
 * <ul>
 *   <li>empty input gives an empty or neutral answer (no survivors, no decision, no scores, no pod), without
 *   throwing;</li>
 *   <li>the same seed gives the same answer;</li>
 *   <li>the candidates, the pod list, the load view's readings and the prefix index are as before the call;</li>
 *   <li>a filter or fast path only narrows: every pod it returns, or decides on, is one it was given (by identity,
 *   in the same roleset and on the same side);</li>
 *   <li>a scorer returns one score per candidate, in candidate order (reversed candidates, reversed scores), never
 *   -Infinity;</li>
 *   <li>a picker picks one of its candidates whenever it has one (a pair: both pods from one roleset).</li>
 * </ul>
 */
class StageContractTest {
    /** Seeds the determinism and picker checks repeat with: enough to take the random tie-breaks different ways. */
    private static final int SEEDS = 3;

    /** A stage instance, named by where production uses it. */
    record Stage(String name, Object stage) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** One world: its pods and the request and load around them. */
    record World(String name, List<Pod> pods, UnaryOperator<Contexts.Request> setup) {
        RoutingContext context(Map<String, Object> policies, long seed) {
            return setup.apply(request().profile(policies)).over(pods, seed);
        }
    }

    /**
     * One call of a stage: what it was given (candidates or a pod list), that input as it was before the call (the
     * same elements, and as text), and what the stage answered.
     */
    record Call(Object given, List<Object> elementsBefore, String before, Object answer) {
        static Call of(Object given, java.util.function.Function<Object, Object> stage) {
            List<Object> elements = given instanceof List<?> list ? new ArrayList<>(list) : List.of();
            String before = describe(given);
            return new Call(given, elements, before, stage.apply(given));
        }
    }

    // ---- The stages ----

    static Stream<Stage> stages() {
        List<Stage> stages = new ArrayList<>();
        cascade(stages, "bucketing off", Map.of());
        cascade(stages, "bucketing on", Map.of("AIBRIX_PROMPT_LENGTH_BUCKETING", "true"));
        cascade(stages, "bucket serve", Map.of("AIBRIX_PROMPT_LENGTH_BUCKETING", "true", "AIBRIX_BUCKET_SERVE", "true"));
        for (PrefillPolicy policy : PrefillPolicy.values()) {
            stages.add(new Stage("prefill policy " + policy, policy.scorer()));
        }
        for (DecodePolicy policy : DecodePolicy.values()) {
            stages.add(new Stage("decode policy " + policy, policy.scorer()));
        }
        for (Strategy strategy : Strategy.values()) {
            if (!strategy.isPd()) {
                stages.add(new Stage("strategy " + strategy, strategy.picker()));
            }
        }
        return stages.stream();
    }

    /** The stages of these kinds (interfaces). */
    private static Stream<Stage> stagesOf(Class<?>... kinds) {
        return stages().filter(s -> Arrays.stream(kinds).anyMatch(kind -> kind.isInstance(s.stage())));
    }

    /**
     * The stages of the cascade these settings build: its filters and fast paths, and its scorers and pair picker,
     * which it keeps in fields without accessors (read here by type, so a stage field added later is covered too).
     */
    private static void cascade(List<Stage> stages, String label, Map<String, String> env) {
        PdCascade cascade = PdCascade.of(GatewaySettings.fromEnv(env).routing());
        for (PodFilter filter : cascade.filters()) {
            stages.add(new Stage(label + ": filter " + filter.name(), filter));
        }
        for (FastPath fastPath : cascade.fastPaths()) {
            stages.add(new Stage(label + ": fast path " + fastPath.name(), fastPath));
        }
        int scorers = 0;
        int pickers = 0;
        for (Field field : PdCascade.class.getDeclaredFields()) {
            boolean scorer = Scorer.class.isAssignableFrom(field.getType());
            boolean picker = PairPicker.class.isAssignableFrom(field.getType());
            if (scorer || picker) {
                field.setAccessible(true);
                try {
                    Object stage = field.get(cascade);
                    String name = scorer ? ((Scorer) stage).name() : ((PairPicker) stage).name();
                    stages.add(new Stage(label + ": " + field.getName() + " " + name, stage));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
                scorers += scorer ? 1 : 0;
                pickers += picker ? 1 : 0;
            }
        }
        if (scorers != 2 || pickers != 1) {
            throw new IllegalStateException("PdCascade should hold 2 scorers and 1 pair picker, found " + scorers
                    + " and " + pickers + ": update this test");
        }
    }

    // ---- The worlds ----

    /** rs1 (bucket 0..100), rs2 (0..1000), rs3 (two prefills, no bucket), rs4 (prefill only), two standard, one plain. */
    private static final List<Pod> CLUSTER = List.of(pod("p1").prefill("rs1").bucket(0, 100).build(),
            pod("d1").decode("rs1").bucket(0, 100).build(), pod("p2").prefill("rs2").bucket(0, 1000).build(),
            pod("d2").decode("rs2").bucket(0, 1000).build(), pod("p3a").prefill("rs3").build(),
            pod("p3b").prefill("rs3").build(), pod("d3").decode("rs3").build(), pod("p4").prefill("rs4").build(),
            pod("s1").standard(0, 0).build(), pod("s2").standard(0, 100).build(), pod("o1").build());

    /** Every policy pair (each policy at least once), one with a minMatchPct threshold. */
    private static final List<Map<String, Object>> POLICIES = List.of(
            Map.of("prefillScorePolicy", "prefix_cache", "decodeScorePolicy", "load_balancing"),
            Map.of("prefillScorePolicy", "least_request", "decodeScorePolicy", "least_request"),
            Map.of("prefillScorePolicy", "conductor", "decodeScorePolicy", "conductor"),
            Map.of("prefillScorePolicy", "token_load", "decodeScorePolicy", "token_load"),
            Map.of("prefillScorePolicy", "hybrid_cache_load", "decodeScorePolicy", "load_balancing",
                    "minMatchPct", 30));

    private static final List<World> WORLDS = List.of(
            // Nothing routed yet: every score ties, every pick is random.
            new World("idle", CLUSTER, r -> r.promptTokens(50)),
            // Prefill spread 40 > 16, decode spread 38 ≥ 16, throughput spread, a full and an absent KV gauge, a pod
            // never routed to, token ledgers, prefix holders, PD pods queued while s1 is idle (combined overflow).
            new World("imbalanced", CLUSTER, r -> r.promptTokens(500).holding("p2", 10).holding("p3a", 4)
                    .load(new FixedLoad().prefilling("p2", 30).prefilling("p3a", 2).prefilling("p3b", 40)
                            .running("d1", 2).running("d2", 40).pending("d3", 3).throughput("d1", 100)
                            .throughput("d2", 3000).kv("d1", 1.0).kv("d2", Double.NaN).kv("d3", 0.5)
                            .tokens("p2", 9000, 3000).tokens("p3b", 500, 0).decodeTokens("d1", 4000, 20)
                            .decodeTokens("d2", 100, 3).waiting("p2", 10).drain("p2", 5).waiting("s1", 0))),
            // Only the drain-rate check fires: running {8, 6, 7}, drain {2, 0.3, 1}.
            new World("draining", CLUSTER, r -> r.promptTokens(50).load(new FixedLoad().running("d1", 8)
                    .running("d2", 6).running("d3", 7).drain("d1", 2).drain("d2", 0.3).drain("d3", 1))),
            // p1 already failed this request, and the plan bands length 50 to rs3.
            new World("excluded and banded", CLUSTER, r -> r.promptTokens(50).excluding("p1")
                    .plan(new BucketPlan(Map.of("m", List.of(new Band("rs3", 0, 100)))))),
            // No complete roleset: only the standard-pod fallback can serve.
            new World("standard only", List.of(pod("p4").prefill("rs4").build(), pod("s1").standard(0, 0).build(),
                    pod("s2").standard(0, 100).build(), pod("o1").build()),
                    r -> r.promptTokens(50).load(new FixedLoad().running("s1", 2))));

    /** One world under one policy pair. */
    record Input(World world, Map<String, Object> policies) {
        String label() {
            return world.name() + " under " + policies.get("prefillScorePolicy") + "/"
                    + policies.get("decodeScorePolicy");
        }

        RoutingContext context(long seed) {
            return world.context(policies, seed);
        }
    }

    /** Every world under every policy pair. */
    private static List<Input> inputs() {
        List<Input> inputs = new ArrayList<>();
        for (World world : WORLDS) {
            for (Map<String, Object> policies : POLICIES) {
                inputs.add(new Input(world, policies));
            }
        }
        return inputs;
    }

    // ---- The properties ----

    @ParameterizedTest(name = "{0}")
    @MethodSource("stages")
    void emptyInput_neutralAnswerWithoutThrowing(Stage stage) {
        for (Map<String, Object> policies : POLICIES) {
            RoutingContext context = request().profile(policies).over(List.of(), 1);
            List<Call> calls = new ArrayList<>();
            assertThatCode(() -> calls.addAll(calls(stage, context))).as("%s on no candidates (%s)", stage, policies)
                    .doesNotThrowAnyException();
            for (Call call : calls) {
                assertThat(isNeutral(call.answer())).as("%s on no candidates (%s) answered %s", stage, policies,
                        describe(call.answer())).isTrue();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stages")
    void sameSeed_sameResult(Stage stage) {
        for (Input input : inputs()) {
            for (long seed = 0; seed < SEEDS; seed++) {
                List<String> first = answers(calls(stage, input.context(seed)));
                List<String> again = answers(calls(stage, input.context(seed)));
                assertThat(again).as("%s in world %s, seed %s, run twice", stage, input.label(), seed)
                        .isEqualTo(first);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stages")
    void anyInput_leftUnchanged(Stage stage) {
        for (Input input : inputs()) {
            RoutingContext context = input.context(3);
            String before = snapshot(context);
            for (Call call : calls(stage, context)) {
                if (call.given() instanceof List<?>) {
                    assertThat(same(call.given())).as("%s in world %s changed its pod list", stage, input.label())
                            .usingElementComparator(StageContractTest::identity)
                            .containsExactlyElementsOf(podList(call.elementsBefore()));
                }
                assertThat(describe(call.given())).as("%s in world %s changed its candidates", stage, input.label())
                        .isEqualTo(call.before());
            }
            assertThat(snapshot(context)).as("%s in world %s changed the load view or the prefix index", stage,
                    input.label()).isEqualTo(before);
        }
    }

    static Stream<Stage> narrowingStages() {
        return stagesOf(PodFilter.class, FastPath.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("narrowingStages")
    void filterOrFastPath_onlyNarrows(Stage stage) {
        for (Input input : inputs()) {
            for (Call call : calls(stage, input.context(5))) {
                PdCandidates given = (PdCandidates) call.given();
                String label = stage + " in world " + input.label();
                if (call.answer() instanceof PodFilter.Result result) {
                    assertSubset(label, given, result.survivors());
                } else if (call.answer() instanceof Optional<?> fired && fired.isPresent()) {
                    if (fired.get() instanceof FastPath.Narrowing narrowing) {
                        assertSubset(label, given, narrowing.candidates());
                    } else {
                        RouteDecision decision = ((FastPath.Decided) fired.get()).decision();
                        assertThat(decidedAmong(decision, given)).as("%s decided on %s", label, describe(decision))
                                .isTrue();
                    }
                }
            }
        }
    }

    static Stream<Stage> scorers() {
        return stagesOf(Scorer.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scorers")
    void scorer_oneScorePerCandidateInOrderNeverMinusInfinity(Stage stage) {
        Scorer scorer = (Scorer) stage.stage();
        for (Input input : inputs()) {
            for (Call call : calls(stage, input.context(5))) {
                List<?> pods = (List<?>) call.given();
                double[] scores = (double[]) call.answer();
                String label = stage + " in world " + input.label() + " over " + describe(pods);
                assertThat(scores).as("%s: one score per candidate", label).hasSize(pods.size());
                assertThat(Arrays.stream(scores).noneMatch(s -> s == Double.NEGATIVE_INFINITY))
                        .as("%s: -Infinity in %s", label, Arrays.toString(scores)).isTrue();
                List<Pod> reversed = podList(pods);
                Collections.reverse(reversed);
                double[] backwards = scorer.score(input.context(5), reversed);
                double[] expected = scores.clone();
                reverse(expected);
                ScoreRow.assertScores(label + ", candidates reversed", backwards, expected);
            }
        }
    }

    static Stream<Stage> pickers() {
        return stagesOf(PairPicker.class, PodPicker.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pickers")
    void picker_picksOneOfItsCandidates(Stage stage) {
        for (Input input : inputs()) {
            for (long seed = 0; seed < SEEDS; seed++) {
                RoutingContext context = input.context(seed);
                for (Call call : calls(stage, context)) {
                    String label = stage + " in world " + input.label() + ", seed " + seed;
                    if (call.answer() instanceof RouteDecision decision) {
                        PdCandidates given = (PdCandidates) call.given();
                        assertThat(decision.kind()).as("%s: %s", label, decision.reason())
                                .isEqualTo(anyScoredPair(given, context) ? DecisionKind.PD_PAIR : DecisionKind.NONE);
                        assertThat(decidedAmong(decision, given)).as("%s picked %s", label, describe(decision))
                                .isTrue();
                    } else {
                        List<?> pods = (List<?>) call.given();
                        Pod picked = (Pod) call.answer();
                        assertThat(pods.stream().anyMatch(p -> p == picked)).as("%s picked %s among %s", label,
                                picked, describe(pods)).isEqualTo(!pods.isEmpty());
                    }
                }
            }
        }
    }

    // ---- Running a stage ----

    /**
     * Runs the stage on what its kind takes from the context: the model's candidates (filters, fast paths, the pair
     * picker, which gets the context's policy scores), each side and all PD pods (scorers), the pods that serve alone
     * and all pods (pod pickers). Lists are fresh mutable copies, so a stage that reorders them in place is seen.
     */
    private static List<Call> calls(Stage stage, RoutingContext context) {
        PdCandidates candidates = PdCandidates.of(context.model(), null);
        List<Pod> prefills = PdCandidatesNarrowing.side(candidates, true);
        List<Pod> decodes = PdCandidatesNarrowing.side(candidates, false);
        List<Call> calls = new ArrayList<>();
        Object s = stage.stage();
        if (s instanceof PodFilter filter) {
            calls.add(Call.of(candidates, given -> filter.filter(context, (PdCandidates) given)));
        } else if (s instanceof FastPath fastPath) {
            calls.add(Call.of(candidates, given -> fastPath.apply(context, (PdCandidates) given)));
        } else if (s instanceof Scorer scorer) {
            List<Pod> both = new ArrayList<>(prefills);
            both.addAll(decodes);
            for (List<Pod> pods : List.of(prefills, decodes, both)) {
                calls.add(Call.of(new ArrayList<>(pods), given -> scorer.score(context, same(given))));
            }
        } else if (s instanceof PairPicker picker) {
            ScoredPods prefillScores = ScoredPods.of(prefills, policyScores(context, prefills, true));
            ScoredPods decodeScores = ScoredPods.of(decodes, policyScores(context, decodes, false));
            calls.add(Call.of(candidates,
                    given -> picker.pick(context, (PdCandidates) given, prefillScores, decodeScores)));
        } else {
            PodPicker picker = (PodPicker) s;
            List<Pod> alone = new ArrayList<>();
            for (Pod pod : context.model().pods()) {
                if (pod.role() == PodRole.OTHER) {
                    alone.add(pod);
                }
            }
            for (List<Pod> pods : List.of(alone, context.model().pods())) {
                calls.add(Call.of(new ArrayList<>(pods), given -> picker.pick(context, same(given))));
            }
        }
        return calls;
    }

    private static double[] policyScores(RoutingContext context, List<Pod> pods, boolean prefill) {
        Scorer scorer = prefill ? context.request().knobs().prefillScorePolicy().scorer()
                : context.request().knobs().decodeScorePolicy().scorer();
        return scorer.score(context, pods);
    }

    // ---- Checks ----

    /** No survivors, no decision, no scores, no pod. */
    private static boolean isNeutral(Object answer) {
        if (answer == null) {
            return true;
        }
        if (answer instanceof PodFilter.Result result) {
            return isEmpty(result.survivors());
        }
        if (answer instanceof Optional<?> fired) {
            return fired.isEmpty() || fired.get() instanceof FastPath.Narrowing n && isEmpty(n.candidates())
                    || fired.get() instanceof FastPath.Decided d && d.decision().kind() == DecisionKind.NONE;
        }
        if (answer instanceof double[] scores) {
            return scores.length == 0;
        }
        return answer instanceof RouteDecision decision && decision.kind() == DecisionKind.NONE;
    }

    private static boolean isEmpty(PdCandidates candidates) {
        return candidates.rolesets().isEmpty() && candidates.standard().isEmpty();
    }

    /** Every roleset of {@code after} is one of {@code before}, each of its pods on the same side there, by identity. */
    private static void assertSubset(String label, PdCandidates before, PdCandidates after) {
        for (Roleset roleset : after.rolesets()) {
            Roleset original = before.rolesets().stream().filter(r -> r.name().equals(roleset.name())).findFirst()
                    .orElse(null);
            assertThat(original).as("%s returned roleset %s it was not given", label, roleset.name()).isNotNull();
            assertThat(containsAll(original.prefills(), roleset.prefills())
                    && containsAll(original.decodes(), roleset.decodes()))
                    .as("%s returned pods it was not given in %s: %s", label, roleset.name(), describe(roleset))
                    .isTrue();
        }
        assertThat(containsAll(before.standard(), after.standard()))
                .as("%s returned standard pods it was not given: %s", label, describe(after.standard())).isTrue();
    }

    /** A decision's pods are among the candidates: a pair's from one roleset and side, a single pod a standard one. */
    private static boolean decidedAmong(RouteDecision decision, PdCandidates candidates) {
        return switch (decision.kind()) {
            case NONE -> decision.prefill() == null && decision.target() == null;
            case SINGLE -> containsAll(candidates.standard(), List.of(decision.target()));
            case PD_PAIR -> candidates.rolesets().stream().anyMatch(r -> containsAll(r.prefills(),
                    List.of(decision.prefill())) && containsAll(r.decodes(), List.of(decision.target())));
        };
    }

    /** Some roleset has a prefill and a decode pod the context's policies can score (not NaN). */
    private static boolean anyScoredPair(PdCandidates candidates, RoutingContext context) {
        for (Roleset roleset : candidates.rolesets()) {
            if (anyScored(roleset.prefills(), context, true) && anyScored(roleset.decodes(), context, false)) {
                return true;
            }
        }
        return false;
    }

    private static boolean anyScored(List<Pod> pods, RoutingContext context, boolean prefill) {
        return !pods.isEmpty() && Arrays.stream(policyScores(context, pods, prefill)).anyMatch(s -> !Double.isNaN(s));
    }

    private static boolean containsAll(List<Pod> pods, List<Pod> subset) {
        return subset.stream().allMatch(p -> pods.stream().anyMatch(q -> q == p));
    }

    private static int identity(Object a, Object b) {
        return a == b ? 0 : 1;
    }

    // ---- Descriptions ----

    /** Every reading of the load view for every pod of the model, and what the prefix-cache view matches for the prompt. */
    private static String snapshot(RoutingContext context) {
        StringBuilder out = new StringBuilder();
        LoadView load = context.load();
        for (Pod pod : context.model().pods()) {
            out.append(pod.name()).append(": ").append(load.inFlightPrefills(pod)).append(' ')
                    .append(load.runningRequests(pod)).append(' ').append(load.pendingDecodes(pod)).append(' ')
                    .append(load.hasRunningMetric(pod)).append(' ').append(load.drainRate(pod)).append(' ')
                    .append(load.metrics(pod)).append(' ').append(load.activeTokens(pod)).append(' ')
                    .append(load.kvTokens(pod)).append(' ').append(load.decodeTokens(pod)).append(' ')
                    .append(load.decodeAgeSeconds(pod)).append('\n');
        }
        var match = context.prefix().match();
        out.append("prefix ").append(match.promptBlocks());
        for (Pod pod : context.model().pods()) {
            out.append(' ').append(pod.name()).append('=').append(match.blocks(pod));
        }
        return out.toString();
    }

    private static List<String> answers(List<Call> calls) {
        List<String> answers = new ArrayList<>();
        for (Call call : calls) {
            answers.add(describe(call.answer()));
        }
        return answers;
    }

    /** A stage's input or answer as text: pods by name, decisions by kind, pods, verdict, step and reason. */
    private static String describe(Object value) {
        if (value instanceof Pod pod) {
            return pod.name();
        }
        if (value instanceof List<?> list) {
            List<String> parts = new ArrayList<>();
            for (Object item : list) {
                parts.add(describe(item));
            }
            return parts.toString();
        }
        if (value instanceof Roleset roleset) {
            return roleset.name() + describe(roleset.prefills()) + describe(roleset.decodes());
        }
        if (value instanceof PdCandidates candidates) {
            return describe(candidates.rolesets()) + " standard " + describe(candidates.standard());
        }
        if (value instanceof PodFilter.Result result) {
            return describe(result.survivors()) + " " + result.rejections();
        }
        if (value instanceof Optional<?> fired) {
            return fired.isEmpty() ? "not fired" : describe(fired.get());
        }
        if (value instanceof FastPath.Narrowing narrowing) {
            return narrowing.step() + ": " + describe(narrowing.candidates()) + " (" + narrowing.reason() + ")";
        }
        if (value instanceof FastPath.Decided decided) {
            return describe(decided.decision());
        }
        if (value instanceof RouteDecision d) {
            return d.kind() + " " + describe(d.prefill()) + "+" + describe(d.target()) + " " + d.verdict() + " "
                    + d.step() + " (" + d.reason() + ") " + d.scores();
        }
        if (value instanceof double[] scores) {
            return Arrays.toString(scores);
        }
        return String.valueOf(value);
    }

    /** The very list given, as a pod list (not a copy: a stage that changes it in place must be seen). */
    @SuppressWarnings("unchecked")
    private static List<Pod> same(Object given) {
        return (List<Pod>) given;
    }

    private static List<Pod> podList(List<?> pods) {
        List<Pod> out = new ArrayList<>();
        for (Object pod : pods) {
            out.add((Pod) pod);
        }
        return out;
    }

    private static void reverse(double[] values) {
        for (int i = 0, j = values.length - 1; i < j; i++, j--) {
            double t = values[i];
            values[i] = values[j];
            values[j] = t;
        }
    }
}
