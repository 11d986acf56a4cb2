package io.pdgateway.core.routing.score;

import static io.pdgateway.core.PodBuilder.decodes;
import static io.pdgateway.core.routing.Contexts.request;
import static io.pdgateway.core.routing.ScoreRow.row;

import io.pdgateway.core.routing.FixedLoad;
import io.pdgateway.core.routing.ScoreRow;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * least_request decode (spec step 4): score = running + pending requests this gateway routed. Covers: both counts, a
 * pod never routed to scored from its pending count alone (the cold start is a decorator, not this scorer), metrics
 * not read, empty and single candidates, ties.
 */
class RunningRequestsDecodeScorerTest {

    static Stream<ScoreRow> rows() {
        return Stream.of(
                row("no candidates_no scores", decodes(), request()),
                row("single idle pod_zero", decodes("d1"), request(), 0),
                // Running {4, 2} → 4, 2.
                row("running counts_as is", decodes("d1", "d2"),
                        request().load(new FixedLoad().running("d1", 4).running("d2", 2)), 4, 2),
                // d1 running 1 + pending 3 = 4.
                row("pending_added", decodes("d1"), request().load(new FixedLoad().running("d1", 1).pending("d1", 3)),
                        4),
                // d1 never routed (no running count), 2 pending: 2.
                row("never routed pod_pending only", decodes("d1"), request().load(new FixedLoad().pending("d1", 2)),
                        2),
                // Throughput and KV are other policies' signals: 0.
                row("metrics_not read", decodes("d1"),
                        request().load(new FixedLoad().throughput("d1", 9000).kv("d1", 0.99)), 0),
                row("equal counts_tie", decodes("d1", "d2"),
                        request().load(new FixedLoad().running("d1", 3).running("d2", 3)), 3, 3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void score(ScoreRow row) {
        row.check(new RunningRequestsDecodeScorer());
    }
}
