package io.pdgateway.core.routing.score;

import static io.pdgateway.core.PodBuilder.prefills;
import static io.pdgateway.core.routing.Contexts.request;
import static io.pdgateway.core.routing.ScoreRow.row;

import io.pdgateway.core.routing.FixedLoad;
import io.pdgateway.core.routing.ScoreRow;
import io.pdgateway.core.routing.Scorer;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The prefill stddev skip (spec step 3) around least_request (score = in flight) unless a row says otherwise: a pod
 * whose in-flight count exceeds mean + N × sample sd is not scored (NaN; N =
 * AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR, default 1). Covers: 0, 1 and 2 pods (it never fires with two), an
 * outlier, equal counts, a larger and a smaller N, the inner scorer's batch being the survivors only, and an invalid
 * N keeping 1.
 */
class StddevSkipScorerTest {
    private static final Scorer LEAST_REQUEST = new StddevSkipScorer(new InFlightPrefillScorer());

    static Stream<ScoreRow> rows() {
        return Stream.of(
                row("no candidates_no scores", prefills(), request()),
                // n = 1: no deviation to speak of, kept: 5.
                row("single pod_kept", prefills("p1"), request().load(new FixedLoad().prefilling("p1", 5)), 5),
                // {0, 100}: mean 50, sample sd = 100/√2 ≈ 70.7 → limit 120.7 ≥ 100: both kept.
                row("two pods far apart_never skipped", prefills("p1", "p2"),
                        request().load(new FixedLoad().prefilling("p2", 100)), 0, 100),
                // {0, 0, 0, 10}: mean 2.5, sd = √((3 × 6.25 + 56.25) / 3) = 5 → limit 7.5 < 10: p4 skipped.
                row("outlier_skipped", prefills("p1", "p2", "p3", "p4"),
                        request().load(new FixedLoad().prefilling("p4", 10)), 0, 0, 0, Double.NaN),
                // {4, 4, 4}: sd 0 → limit 4, and 4 is not above it: all kept.
                row("equal counts_all kept", prefills("p1", "p2", "p3"), request().load(new FixedLoad()
                        .prefilling("p1", 4).prefilling("p2", 4).prefilling("p3", 4)), 4, 4, 4),
                // N = 2: {0, 0, 0, 10} → limit 2.5 + 10 = 12.5: all kept.
                row("larger factor_outlier kept", prefills("p1", "p2", "p3", "p4"),
                        request().env(Map.of("AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR", "2"))
                                .load(new FixedLoad().prefilling("p4", 10)), 0, 0, 0, 10),
                // {0, 2, 4}: mean 2, sd = √(8/2) = 2. N = 1 → limit 4: 4 kept (not above).
                row("count at limit_kept", prefills("p1", "p2", "p3"),
                        request().load(new FixedLoad().prefilling("p2", 2).prefilling("p3", 4)), 0, 2, 4),
                // N = 0.5 → limit 3 < 4: p3 skipped.
                row("smaller factor_skips sooner", prefills("p1", "p2", "p3"),
                        request().env(Map.of("AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR", "0.5"))
                                .load(new FixedLoad().prefilling("p2", 2).prefilling("p3", 4)), 0, 2, Double.NaN),
                // Invalid: N = −1 must be positive → 1: {0, 0, 0, 10} → p4 skipped as with the default.
                row("invalid factor_default kept", prefills("p1", "p2", "p3", "p4"),
                        request().env(Map.of("AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR", "-1"))
                                .rejects("AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR")
                                .load(new FixedLoad().prefilling("p4", 10)), 0, 0, 0, Double.NaN));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void score(ScoreRow row) {
        row.check(LEAST_REQUEST);
    }

    static Stream<ScoreRow> prefixCacheRows() {
        return Stream.of(
                // {0, 0, 2, 10}: mean 3, sd = √((9 + 9 + 1 + 49) / 3) ≈ 4.76 → limit 7.76: p4 skipped. prefix_cache
                // over p1..p3 alone: max reqs 2 (not 10): 10 + 0, 10 + 0, 10 + 2/2 = 11.
                row("inner batch_survivors only", prefills("p1", "p2", "p3", "p4"),
                        request().load(new FixedLoad().prefilling("p3", 2).prefilling("p4", 10)), 10, 10, 11,
                        Double.NaN),
                // The overloaded pod holds the whole prefix (it would score 0 + 10/10 = 1) but is skipped.
                row("overloaded prefix holder_skipped", prefills("p1", "p2", "p3", "p4"),
                        request().holding("p4", 10).load(new FixedLoad().prefilling("p4", 10)), 10, 10, 10,
                        Double.NaN));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("prefixCacheRows")
    void scoreAroundPrefixCache(ScoreRow row) {
        row.check(new StddevSkipScorer(new PrefixCacheScorer()));
    }
}
