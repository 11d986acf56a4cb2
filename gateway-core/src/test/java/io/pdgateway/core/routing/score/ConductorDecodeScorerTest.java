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
 * conductor decode (spec step 4, reference §3 step H), an estimated TBT in ms: tbt = 1000 / thr when thr > 0, else 20;
 * est = tbt × (1 + 1 / max(reqs, 1)); × 1.5 when 1 − free / 100 > 0.9 (free = round(100 − kv × 100)). Covers: each
 * factor, absent and zero throughput, the KV pressure threshold (90 % is not above it), empty and single candidates.
 */
class ConductorDecodeScorerTest {

    static Stream<ScoreRow> rows() {
        return Stream.of(
                row("no candidates_no scores", decodes(), request()),
                // No throughput: 20 ms; reqs 0 → max 1 → × 2 = 40; kv absent → free 100, no pressure.
                row("single idle pod_default tbt", decodes("d1"), request(), 40),
                // d1 thr 50 → 20 ms, reqs 4 → × 1.25 = 25, kv 0.95 → free 5 → usage 0.95 > 0.9 → × 1.5 = 37.5;
                // d2 no thr → 20, reqs 2 → × 1.5 = 30, kv 0.5 → no pressure.
                row("throughput batch and pressure_each factor", decodes("d1", "d2"),
                        request().load(new FixedLoad().running("d1", 4).running("d2", 2).throughput("d1", 50)
                                .kv("d1", 0.95).kv("d2", 0.5)), 37.5, 30),
                // thr 100 → 10 ms, reqs 1 → × 2 = 20; kv 0.9 → free 10 → usage 0.9, not above 0.9 → 20.
                row("usage at ninety percent_no penalty", decodes("d1"),
                        request().load(new FixedLoad().running("d1", 1).throughput("d1", 100).kv("d1", 0.9)), 20),
                // kv 0.91 → free 9 → usage 0.91 > 0.9 → 20 × 1.5 = 30.
                row("usage above ninety percent_penalty", decodes("d1"),
                        request().load(new FixedLoad().running("d1", 1).throughput("d1", 100).kv("d1", 0.91)), 30),
                // Throughput reported as 0: not > 0 → 20 ms, reqs 1 → 40.
                row("zero throughput_default tbt", decodes("d1"),
                        request().load(new FixedLoad().running("d1", 1).throughput("d1", 0)), 40),
                // reqs 9: 10 ms × (1 + 1/9).
                row("large batch_small increment", decodes("d1"),
                        request().load(new FixedLoad().running("d1", 9).throughput("d1", 100)), 10 * (1 + 1.0 / 9)),
                row("equal pods_tie", decodes("d1", "d2"), request(), 40, 40));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void score(ScoreRow row) {
        row.check(new ConductorDecodeScorer());
    }
}
