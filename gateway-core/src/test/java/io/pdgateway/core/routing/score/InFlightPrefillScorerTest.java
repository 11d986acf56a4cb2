package io.pdgateway.core.routing.score;

import static io.pdgateway.core.PodBuilder.prefills;
import static io.pdgateway.core.routing.Contexts.request;
import static io.pdgateway.core.routing.ScoreRow.row;

import io.pdgateway.core.routing.FixedLoad;
import io.pdgateway.core.routing.ScoreRow;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * least_request prefill (spec step 3): score = the pod's in-flight prefill requests. Covers: the count as is, other
 * signals (decode counts, tokens, prefix) not read, empty and single candidates, ties.
 */
class InFlightPrefillScorerTest {

    static Stream<ScoreRow> rows() {
        return Stream.of(
                row("no candidates_no scores", prefills(), request()),
                row("single idle pod_zero", prefills("p1"), request(), 0),
                // In flight {3, 7, 0} → 3, 7, 0.
                row("in-flight counts_as is", prefills("p1", "p2", "p3"),
                        request().load(new FixedLoad().prefilling("p1", 3).prefilling("p2", 7)), 3, 7, 0),
                // Running decodes, tokens and the prefix are other policies' signals: 0.
                row("other signals_not read", prefills("p1"), request().holding("p1", 10)
                        .load(new FixedLoad().running("p1", 5).tokens("p1", 9999, 9999).waiting("p1", 4)), 0),
                // {2, 2} → a tie.
                row("equal counts_tie", prefills("p1", "p2"),
                        request().load(new FixedLoad().prefilling("p1", 2).prefilling("p2", 2)), 2, 2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void score(ScoreRow row) {
        row.check(new InFlightPrefillScorer());
    }
}
