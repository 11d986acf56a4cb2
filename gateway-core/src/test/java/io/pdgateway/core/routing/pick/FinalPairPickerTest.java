package io.pdgateway.core.routing.pick;

import static io.pdgateway.core.routing.Contexts.request;

import io.pdgateway.core.routing.Picks;
import io.pdgateway.core.routing.RouteDecision;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Step 5, the final pair: per roleset its lowest-scoring prefill and decode pod (NaN = not scored, skipped);
 * final = prefill / max(1, max prefill) + decode / max(0.01, max decode) over every scored pod; the lowest roleset
 * wins, ties at random. Covers: the sum, one roleset's pair (never the best of each side from two rolesets), the
 * lowest pod within a roleset, both normaliser floors, unscored pods and rolesets, +Infinity as a valid worst score,
 * ties spread over rolesets and over pods whatever their list position, no rolesets. Pods are written "name=score";
 * names starting with p are prefill pods, with d decode pods.
 */
class FinalPairPickerTest {

    /** The rolesets in order, each pod with its score, and the pairs ("p1+d1") the picker may answer. */
    record Row(String name, List<String[]> rolesets, Set<String> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Row row(String name, Set<String> expected, String[]... rolesets) {
        return new Row(name, List.of(rolesets), expected);
    }

    /** A roleset: its name, then its pods as "name=score". */
    private static String[] rs(String... nameThenPods) {
        return nameThenPods;
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("no rolesets_none", Set.of(Picks.NONE)),
                row("single roleset_its pair", Set.of("p1+d1"), rs("rs1", "p1=5", "d1=7")),
                // maxP = max(1, 3) = 3, maxD = max(0.01, 1) = 1: rs1 = 3/3 + 1/1 = 2; rs2 = 0 + 1 = 1 → rs2.
                row("lowest sum_wins", Set.of("p2+d2"), rs("rs1", "p1=3", "d1=1"), rs("rs2", "p2=0", "d2=1")),
                // rs1 has the better prefill, rs2 the better decode: maxP 2, maxD 4: rs1 = 0 + 4/4 = 1;
                // rs2 = 2/2 + 1/4 = 1.25 → rs1's pair, never p1 with d2.
                row("best sides in different rolesets_one roleset's pair", Set.of("p1+d1"),
                        rs("rs1", "p1=0", "d1=4"), rs("rs2", "p2=2", "d2=1")),
                // Within rs1: p1b (0.5) below p1a (2), d1a (1) below d1b (3).
                row("two pods per side_lowest of each", Set.of("p1b+d1a"),
                        rs("rs1", "p1a=2", "p1b=0.5", "d1a=1", "d1b=3")),
                // Floors: maxP = max(1, 0.5) = 1, maxD = max(0.01, 0.009) = 0.01: rs1 = 0.5 + 0.5 = 1.0;
                // rs2 = 0.2 + 0.9 = 1.1 → rs1. (Dividing by the raw maxima 0.5 and 0.009 would pick rs2: 1.56 vs 1.4.)
                row("small scores_normaliser floors", Set.of("p1+d1"),
                        rs("rs1", "p1=0.5", "d1=0.005"), rs("rs2", "p2=0.2", "d2=0.009")),
                // p1a not scored (stddev-skipped): p1b is rs1's prefill. maxP 5, maxD 1: rs1 = 1/5 + 0/1 = 0.2;
                // rs2 = 5/5 + 1/1 = 2 → p1b with d1, never the unscored p1a.
                row("unscored pod_skipped", Set.of("p1b+d1"),
                        rs("rs1", "p1a=NaN", "p1b=1", "d1=0"), rs("rs2", "p2=5", "d2=1")),
                // rs1's only prefill is unscored: rs1 drops out though its decode is best: rs2 (9, 9) wins.
                row("roleset without scored prefill_skipped", Set.of("p2+d2"),
                        rs("rs1", "p1=NaN", "d1=0"), rs("rs2", "p2=9", "d2=9")),
                row("nothing scored_none", Set.of(Picks.NONE), rs("rs1", "p1=NaN", "d1=NaN")),
                // +Infinity is a valid worst score: the only pair is still a pair.
                row("only pair infinite_still picked", Set.of("p1+d1"), rs("rs1", "p1=1", "d1=Infinity")),
                // d3 at +Infinity must not blind the decode term of the others: rs1 = 0 + 1/2 < rs2 = 0 + 2/2 (max over
                // finite scores 2) → rs1; rs3 = +Infinity loses.
                row("one infinite decode_others still ranked", Set.of("p1+d1"), rs("rs1", "p1=0", "d1=1"),
                        rs("rs2", "p2=0", "d2=2"), rs("rs3", "p3=0", "d3=Infinity")),
                // Three equal rolesets: each wins under some seeds.
                row("equal rolesets_each picked", Set.of("p1+d1", "p2+d2", "p3+d3"), rs("rs1", "p1=1", "d1=1"),
                        rs("rs2", "p2=1", "d2=1"), rs("rs3", "p3=1", "d3=1")),
                // A tie behind a better first roleset: rs2 and rs3 tie at 0 + 1 after rs1's 2.
                row("tie after first roleset_both picked", Set.of("p2+d2", "p3+d3"), rs("rs1", "p1=1", "d1=1"),
                        rs("rs2", "p2=0", "d2=1"), rs("rs3", "p3=0", "d3=1")),
                // Tied pods within one roleset: any of the two prefills.
                row("equal pods in roleset_each picked", Set.of("p1a+d1", "p1b+d1"),
                        rs("rs1", "p1a=2", "p1b=2", "d1=1")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void pick(Row row) {
        ScoredRolesets table = ScoredRolesets.of(row.rolesets());
        Picks.assertSpread("final pair in row '" + row.name() + "'", Picks.underSeeds(seed -> {
            RouteDecision decision = new FinalPairPicker().pick(request().over(table.pods(), seed), table.candidates(),
                    table.prefill(), table.decode());
            return decision.isPd() ? decision.prefill().name() + "+" + decision.target().name() : null;
        }), row.expected());
    }
}
