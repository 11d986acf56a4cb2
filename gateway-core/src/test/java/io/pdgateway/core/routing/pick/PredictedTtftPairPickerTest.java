package io.pdgateway.core.routing.pick;

import static io.pdgateway.core.routing.Contexts.request;

import io.pdgateway.core.routing.Contexts;
import io.pdgateway.core.routing.FixedLoad;
import io.pdgateway.core.routing.Picks;
import io.pdgateway.core.routing.RouteDecision;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Step 5 under predicted_ttft: per roleset its earliest prefill (the prefill score is the predicted first token, ms)
 * and its best decode pod under the decode limits (scraped KV use below decodeKvLimit, 0.95 by default; and, when
 * decodeTpotLimitMs is set, running / generation throughput below it); the roleset with the earliest prediction wins,
 * the decode policy's score breaks ties, exact ties at random; a roleset whose decode pods are all over a limit is
 * taken only when every roleset is (then by the same order). Each roleset's decode pod adds what joining it costs:
 * its step for the first token (7.2 + 0.012·B + 4.4e-5·ΣC ms by default), the request's expectedOutputTokens (0 by
 * default; 256 in these rows) each slower by the requests already there, and, times predictedTtftWorkWeight, what it
 * adds to theirs; rows for a busy decode pod outweighing a quicker prefill, the default (its first-token step alone),
 * and the weight on and off. Pairs whose prediction is within the best's measured error of it (the best prefill pod's
 * mean relative error times the best prediction) are told apart by chance, each equally likely, when their prefill
 * pods have no leg in flight: rows with the error known, unknown, another pod's, a pair in the band over a decode
 * limit, a busy prefill pod in the band and a busy best. Covers
 * each of these and empty input. Pods are written "name=score"; names starting with p are prefill pods, with d decode
 * pods. The prompt is 100 tokens.
 */
class PredictedTtftPairPickerTest {

    /** An expected answer of 256 tokens (the default is 0: the first decode step only). */
    private static final java.util.Map<String, Object> ANSWER_256 = java.util.Map.of("expectedOutputTokens", 256);

    /** d1 runs 4 requests holding 4,000 prompt tokens. */
    private static final FixedLoad BUSY_D1 = new FixedLoad().running("d1", 4).decodeTokens("d1", 4000, 0);

    record Row(String name, Contexts.Request request, List<String[]> rolesets, Set<String> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Row row(String name, Contexts.Request request, Set<String> expected, String[]... rolesets) {
        return new Row(name, request, List.of(rolesets), expected);
    }

    private static String[] rs(String... nameThenPods) {
        return nameThenPods;
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("no rolesets_none", request(), Set.of(Picks.NONE)),
                // rs2's first token is earlier (40 < 50) though rs1's decode pod scores better.
                row("earliest first token_wins", request(), Set.of("p2+d2"), rs("rs1", "p1=50", "d1=1"),
                        rs("rs2", "p2=40", "d2=5")),
                // Equal predictions: the decode policy's lower score decides.
                row("equal predictions_decode score decides", request(), Set.of("p2+d2"),
                        rs("rs1", "p1=40", "d1=3"), rs("rs2", "p2=40", "d2=1")),
                // d1's KV use 0.96 is over the 0.95 limit: rs1 is skipped although its prefill is far earlier.
                row("decode over the KV limit_pair skipped", request().load(new FixedLoad().kv("d1", 0.96)),
                        Set.of("p2+d2"), rs("rs1", "p1=10", "d1=1"), rs("rs2", "p2=50", "d2=1")),
                // Both decode pods over the limit: no pair is feasible, so the earliest prediction still routes.
                row("every decode over its limit_earliest still routed",
                        request().load(new FixedLoad().kv("d1", 0.99).kv("d2", 0.97)), Set.of("p1+d1"),
                        rs("rs1", "p1=10", "d1=5"), rs("rs2", "p2=50", "d2=1")),
                // Within rs1 the better-scored d1a is over the limit: d1b is rs1's decode pod.
                row("best decode over the limit_next one in the roleset", request().load(new FixedLoad().kv("d1a", 0.99)
                        .kv("d1b", 0.1)), Set.of("p1+d1b"), rs("rs1", "p1=10", "d1a=0", "d1b=7")),
                // decodeTpotLimitMs 20: d1 runs 30 requests at 1,000 tokens/s = 30 ms a token, over; d2 1 ms.
                row("decode over the TPOT limit_pair skipped", request().profile("decodeTpotLimitMs", 20)
                        .load(new FixedLoad().running("d1", 30).throughput("d1", 1000).running("d2", 1)
                                .throughput("d2", 1000)), Set.of("p2+d2"), rs("rs1", "p1=10", "d1=1"),
                        rs("rs2", "p2=50", "d2=1")),
                // Without a TPOT limit (the default 0) the same load is no limit; with no expected output its decode
                // cost is one step (7.58 ms), so rs1's earlier prefill still wins.
                row("no TPOT limit_busy decode allowed", request().profile("expectedOutputTokens", 0)
                        .load(new FixedLoad().running("d1", 30)
                        .throughput("d1", 1000)), Set.of("p1+d1"), rs("rs1", "p1=10", "d1=1"),
                        rs("rs2", "p2=50", "d2=1")),
                // rs1's prefill is not scored (no model): rs2 routes.
                row("unscored prefill_roleset skipped", request(), Set.of("p2+d2"), rs("rs1", "p1=NaN", "d1=0"),
                        rs("rs2", "p2=90", "d2=9")),
                // d1 runs 4 requests holding 4,000 prompt tokens (+ 4 × 128 generated): its step for the first token
                // 7.47 ms, 256 tokens each 0.2465 ms slower = 63.1, and 4 × 128 × 0.0220 = 11.3 added to theirs: rs1 =
                // 40 + 81.9 = 121.9; idle d2 costs one step, 7.22: rs2 = 67.2 wins.
                row("busy decode pod_outweighs a quicker prefill", request().profile(ANSWER_256).load(BUSY_D1),
                        Set.of("p2+d2"), rs("rs1", "p1=40", "d1=0"), rs("rs2", "p2=60", "d2=0")),
                // No expected output (the default): only the first-token step counts (7.44 against 7.22): rs1's
                // prefill wins.
                row("expected output zero_first decode step only", request().load(BUSY_D1), Set.of("p1+d1"),
                        rs("rs1", "p1=40", "d1=0"), rs("rs2", "p2=60", "d2=0")),
                // Weight 1: rs1 = 110 + 81.9 = 121.9 (with the 11.3 ms it adds to d1's requests) > rs2 = 117.2.
                row("work weight_counts what a request adds to others", request().profile(ANSWER_256).load(BUSY_D1),
                        Set.of("p2+d2"), rs("rs1", "p1=40", "d1=0"), rs("rs2", "p2=110", "d2=0")),
                // Weight 0: the 11.3 ms no longer count: rs1 = 110.6 < 117.2.
                row("work weight zero_only this request's own time", request()
                        .profile(java.util.Map.of("predictedTtftWorkWeight", 0, "expectedOutputTokens", 256))
                        .load(BUSY_D1), Set.of("p1+d1"), rs("rs1", "p1=40", "d1=0"), rs("rs2", "p2=110", "d2=0")),
                // The best prefill pod's model errs by 5 % on average: rs1 predicts 47.2 ms, so rs2 (49.2) is within
                // 47.2 × 1.05 = 49.6 and as likely; rs3 (52.2) is not. Its decode pod's worse score does not matter.
                row("within the best's measured error_either", request().load(new FixedLoad().prefillError("p1", 0.05)),
                        Set.of("p1+d1", "p2+d2"), rs("rs1", "p1=40", "d1=0"), rs("rs2", "p2=42", "d2=5"),
                        rs("rs3", "p3=45", "d3=0")),
                // No measured error yet (the pod never answered): the earliest alone.
                row("error unknown_earliest only", request(), Set.of("p1+d1"), rs("rs1", "p1=40", "d1=0"),
                        rs("rs2", "p2=42", "d2=5")),
                // Only the error of the best's prefill pod counts: p2's does not widen the band around p1.
                row("other pod's error_earliest only", request().load(new FixedLoad().prefillError("p2", 0.5)),
                        Set.of("p1+d1"), rs("rs1", "p1=40", "d1=0"), rs("rs2", "p2=42", "d2=5")),
                // rs2 is within the band but its decode pod is over the KV limit: not a candidate while rs1 is under.
                row("within the error but over a limit_skipped", request().load(new FixedLoad().prefillError("p1", 0.05)
                        .kv("d2", 0.99)), Set.of("p1+d1"), rs("rs1", "p1=40", "d1=0"), rs("rs2", "p2=42", "d2=0")),
                // p2 is within the band but computing a leg the gateway sent: its prediction counts that, not chance.
                row("within the error but its prefill busy_skipped", request().load(new FixedLoad()
                        .prefillError("p1", 0.05).prefilling("p2", 1)), Set.of("p1+d1"), rs("rs1", "p1=40", "d1=0"),
                        rs("rs2", "p2=42", "d2=0")),
                // The best's own prefill pod is busy: the best stands, as without a band.
                row("best prefill busy_no band", request().load(new FixedLoad().prefillError("p1", 0.05)
                        .prefilling("p1", 1)), Set.of("p1+d1"), rs("rs1", "p1=40", "d1=0"), rs("rs2", "p2=42", "d2=0")),
                // Equal in everything: either pair.
                row("exact tie_either", request(), Set.of("p1+d1", "p2+d2"), rs("rs1", "p1=40", "d1=2"),
                        rs("rs2", "p2=40", "d2=2")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void pick(Row row) {
        ScoredRolesets table = ScoredRolesets.of(row.rolesets());
        Picks.assertSpread("predicted-ttft pair in row '" + row.name() + "'", Picks.underSeeds(seed -> {
            RouteDecision decision = new PredictedTtftPairPicker().pick(row.request().over(table.pods(), seed), table.candidates(),
                    table.prefill(), table.decode());
            return decision.isPd() ? decision.prefill().name() + "+" + decision.target().name() : null;
        }), row.expected());
    }
}
