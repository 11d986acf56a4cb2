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
 * conductor prefill (spec step 3, reference §3 step G), an estimated TTFT in ms over a prompt of T tokens with a
 * match of m %: queue = in_flight × avg_prefill_ms (avg from the histogram, else prefill(512)); prefix = 0.005 ×
 * matched + 1 when matched > 0; prefill(u) = 0.001 × u^1.5 + 5 when u > 0; score = queue + prefix + prefill(T −
 * matched). Covers: each term, the missing or non-positive histogram, a full and a partial match, an empty prompt,
 * minMatchPct not applying to conductor, empty and single candidates.
 */
class ConductorPrefillScorerTest {
    /** prefill(512) = 0.001 × 512^1.5 + 5 ≈ 16.585 ms: the assumed length of a queued request without a histogram. */
    private static final double QUEUED_512 = 0.001 * Math.pow(512, 1.5) + 5;

    static Stream<ScoreRow> rows() {
        return Stream.of(
                row("no candidates_no scores", prefills(), request()),
                // T = 100, idle, no match: prefill(100) = 0.001 × 1000 + 5 = 6.
                row("single idle pod_prefill only", prefills("p1"), request(), 6),
                // p1: 3 in flight × 2 ms = 6 of queue + 6 = 12; p2 idle: 6.
                row("queue with histogram_in flight times mean", prefills("p1", "p2"),
                        request().load(new FixedLoad().prefilling("p1", 3).avgPrefillMillis("p1", 2)), 12, 6),
                // No histogram (NaN): 2 × prefill(512) + 6.
                row("absent histogram_512-token default", prefills("p1"),
                        request().load(new FixedLoad().prefilling("p1", 2)), 2 * QUEUED_512 + 6),
                // A histogram mean of 0 is no figure: 1 × prefill(512) + 6.
                row("zero histogram_512-token default", prefills("p1"),
                        request().load(new FixedLoad().prefilling("p1", 1).avgPrefillMillis("p1", 0)), QUEUED_512 + 6),
                // A mean but nothing in flight: no queue: 6.
                row("histogram without queue_no queue time", prefills("p1"),
                        request().load(new FixedLoad().avgPrefillMillis("p1", 50)), 6),
                // Full match of T = 100: prefix 0.005 × 100 + 1 = 1.5, nothing left to compute.
                row("full match_prefix time only", prefills("p1"), request().holding("p1", 10), 1.5),
                // 40 % of 100: prefix 0.005 × 40 + 1 = 1.2; prefill(60) = 0.001 × 60^1.5 + 5 ≈ 5.4648.
                row("partial match_both terms", prefills("p1", "p2"), request().holding("p1", 4),
                        1.2 + 0.001 * Math.pow(60, 1.5) + 5, 6),
                // T = 400, full match: 0.005 × 400 + 1 = 3.
                row("longer prompt full match_prefix scales", prefills("p1"),
                        request().promptTokens(400).holding("p1", 10), 3),
                // T = 0: nothing matched, nothing to compute: 0 + queue 2 × 3 ms = 6.
                row("empty prompt_queue only", prefills("p1"), request().promptTokens(0)
                        .load(new FixedLoad().prefilling("p1", 2).avgPrefillMillis("p1", 3)), 6),
                // minMatchPct 50 applies to prefix_cache and hybrid_cache_load only: the 40 % match still counts.
                row("minMatchPct_not applied", prefills("p1"), request().profile("minMatchPct", 50).holding("p1", 4),
                        1.2 + 0.001 * Math.pow(60, 1.5) + 5),
                // Equal pods: 6 and 6 (a tie).
                row("equal pods_tie", prefills("p1", "p2"), request(), 6, 6));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void score(ScoreRow row) {
        row.check(new ConductorPrefillScorer());
    }
}
