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
 * prefix_cache (spec step 3): score = (100 − match%) × 0.1 + reqs / max(1, max reqs). Covers: the cache term, the load
 * term normalised by the batch maximum (floored at 1), matches below AIBRIX_MIN_MATCH_PCT counting as none (at the
 * threshold counting), no hashes or no index meaning no match, empty and single candidates, ties, and an invalid
 * minMatchPct keeping the default. The prompt has 10 blocks, so holding k blocks is a k × 10 % match.
 */
class PrefixCacheScorerTest {

    static Stream<ScoreRow> rows() {
        return Stream.of(
                // No candidates, no scores.
                row("no candidates_no scores", prefills(), request()),
                // One idle pod, no match: (100 − 0) × 0.1 + 0 / max(1, 0) = 10.
                row("single idle pod_cache term only", prefills("p1"), request(), 10),
                // p1 holds all 10 blocks and has 3 in flight; p2 nothing, idle. max reqs 3:
                // p1 = 0 × 0.1 + 3/3 = 1; p2 = 100 × 0.1 + 0/3 = 10.
                row("full match_beats idle pod", prefills("p1", "p2"),
                        request().holding("p1", 10).load(new FixedLoad().prefilling("p1", 3)), 1, 10),
                // p1 holds 4 of 10 blocks = 40 %: 60 × 0.1 = 6; p2 none: 10.
                row("partial match_discounts cache term", prefills("p1", "p2"), request().holding("p1", 4), 6, 10),
                // p1 holds 10 blocks, p2 the first 4 (it drops out at block 5): 0 and 6.
                row("longest match_lowest", prefills("p1", "p2"), request().holding("p1", 10).holding("p2", 4), 0, 6),
                // No match; in flight {2, 4, 0}, max 4: 10 + 2/4 = 10.5, 10 + 4/4 = 11, 10 + 0 = 10.
                row("load term_normalised by batch max", prefills("p1", "p2", "p3"),
                        request().load(new FixedLoad().prefilling("p1", 2).prefilling("p2", 4)), 10.5, 11, 10),
                // All idle: max reqs = max(1, 0) = 1, so no division by zero: 10 each (a tie).
                row("all idle_max floored at one", prefills("p1", "p2", "p3"), request(), 10, 10, 10),
                // Both hold the whole prefix, both idle: 0 and 0 (a tie the picker breaks).
                row("equal matches_tie", prefills("p1", "p2"), request().holding("p1", 10).holding("p2", 10), 0, 0),
                // minMatchPct 30, p1 holds 2 blocks = 20 % < 30 → no match: 10; p2 10.
                row("match below minMatchPct_ignored", prefills("p1", "p2"),
                        request().profile("minMatchPct", 30).holding("p1", 2), 10, 10),
                // The same 20 % without a threshold: 80 × 0.1 = 8.
                row("match without minMatchPct_counts", prefills("p1", "p2"), request().holding("p1", 2), 8, 10),
                // minMatchPct 30, p1 holds 3 blocks = 30 %, not below 30 → counts: 70 × 0.1 = 7.
                row("match at minMatchPct_counts", prefills("p1", "p2"),
                        request().profile("minMatchPct", 30).holding("p1", 3), 7, 10),
                // minMatchPct 30, p1 holds 5 blocks = 50 % → 5.
                row("match above minMatchPct_counts", prefills("p1", "p2"),
                        request().profile("minMatchPct", 30).holding("p1", 5), 5, 10),
                // The request carries no hashes (prompt shorter than a block): no match even for the holder: 10.
                row("no prefix hashes_no match", prefills("p1"), request().holding("p1", 10).noHashes(), 10),
                // No prefix index in the context: no match: 10 + 1/1 = 11.
                row("no prefix index_no match", prefills("p1"),
                        request().noIndex().load(new FixedLoad().prefilling("p1", 1)), 11),
                // Invalid: minMatchPct 150 is outside 0..100 → kept at 0, so p1's 20 % counts: 8.
                row("invalid minMatchPct_default kept", prefills("p1"),
                        request().profile("minMatchPct", 150).holding("p1", 2).rejects("minMatchPct"), 8),
                // Invalid: minMatchPct "30" is text, not a number → kept at 0: 8.
                row("invalid minMatchPct text_default kept", prefills("p1"),
                        request().profile("minMatchPct", "30").holding("p1", 2).rejects("minMatchPct"), 8));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void score(ScoreRow row) {
        row.check(new PrefixCacheScorer());
    }
}
