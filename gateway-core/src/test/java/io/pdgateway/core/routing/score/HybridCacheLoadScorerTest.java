package io.pdgateway.core.routing.score;

import static io.pdgateway.core.PodBuilder.prefills;
import static io.pdgateway.core.routing.Contexts.request;
import static io.pdgateway.core.routing.ScoreRow.row;

import io.pdgateway.core.routing.FixedLoad;
import io.pdgateway.core.routing.ScoreRow;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * hybrid_cache_load (spec step 3): r = match% / 100 (0 below AIBRIX_MIN_MATCH_PCT), discount = 1 − r² × factor,
 * load = active + kv_weight × kv; score = load × discount when load ≥ 1, the bare discount when load < 1. Covers: idle
 * pods ranked by the cache alone (a load below 1 is not multiplied in), busy pods by the discounted load, the square
 * of small matches, kv_weight, factor 0 and 1, the threshold, empty and single candidates, and invalid factor,
 * kv weight and threshold keeping their defaults (factor 0.5, kv weight 0.3, threshold 0).
 */
class HybridCacheLoadScorerTest {

    static Stream<ScoreRow> rows() {
        return Stream.of(
                row("no candidates_no scores", prefills(), request()),
                // Idle, no match: discount 1 − 0 = 1.
                row("single idle pod_discount one", prefills("p1"), request(), 1),
                // Idle pods: p1 100 % → 1 − 1 × 0.5 = 0.5; p2 30 % → 1 − 0.09 × 0.5 = 0.955; p3 none → 1.
                row("idle pods_cache decides", prefills("p1", "p2", "p3"),
                        request().holding("p1", 10).holding("p2", 3), 0.5, 0.955, 1),
                // Load below 1: p1 kv 3 → 0.3 × 3 = 0.9 < 1, full match → bare discount 0.5 (not 0.9 × 0.5);
                // p2 kv 2 → 0.6 < 1, no match → 1 (not 0.6).
                row("load below one_bare discount", prefills("p1", "p2"),
                        request().holding("p1", 10).load(new FixedLoad().tokens("p1", 0, 3).tokens("p2", 0, 2)), 0.5,
                        1),
                // Load exactly 1 counts as busy: p1 active 1, full match → 1 × 0.5 = 0.5; p2 active 2, none → 2.
                row("load one_scaled", prefills("p1", "p2"),
                        request().holding("p1", 10).load(new FixedLoad().tokens("p1", 1, 0).tokens("p2", 2, 0)), 0.5,
                        2),
                // Busy: p1 full match but 10000 → 5000; p2 4000, none → 4000: the load decides.
                row("busy holder beyond twice the load_loses", prefills("p1", "p2"),
                        request().holding("p1", 10).load(new FixedLoad().tokens("p1", 10000, 0).tokens("p2", 4000, 0)),
                        5000, 4000),
                // Busy: p1 3000 × 0.5 = 1500 < p2 4000: the match halves the holder's load.
                row("busy holder within twice the load_wins", prefills("p1", "p2"),
                        request().holding("p1", 10).load(new FixedLoad().tokens("p1", 3000, 0).tokens("p2", 4000, 0)),
                        1500, 4000),
                // KV tokens weigh 0.3: 1000 + 0.3 × 1000 = 1300.
                row("kv tokens_weighted", prefills("p1"), request().load(new FixedLoad().tokens("p1", 1000, 1000)),
                        1300),
                // tokenLoadKVWeight 1: 1000 + 1000 = 2000.
                row("kv weight one_kv counts fully", prefills("p1"),
                        request().profile("tokenLoadKVWeight", 1).load(new FixedLoad().tokens("p1", 1000, 1000)), 2000),
                // factor 1: a full match scores 0 whatever the load; p2 idle 1.
                row("factor one_full match always wins", prefills("p1", "p2"),
                        request().profile("hybridCacheLoadFactor", 1).holding("p1", 10)
                                .load(new FixedLoad().tokens("p1", 50000, 0)), 0, 1),
                // factor 0: no discount: p1 500, p2 400.
                row("factor zero_plain token load", prefills("p1", "p2"),
                        request().profile("hybridCacheLoadFactor", 0).holding("p1", 10)
                                .load(new FixedLoad().tokens("p1", 500, 0).tokens("p2", 400, 0)), 500, 400),
                // minMatchPct 40: p1 30 % is ignored → 1; p2 50 % → 1 − 0.25 × 0.5 = 0.875.
                row("match below minMatchPct_ignored", prefills("p1", "p2"),
                        request().profile("minMatchPct", 40).holding("p1", 3).holding("p2", 5), 1, 0.875),
                // minMatchPct 30, p1 30 % (not below) → 0.955.
                row("match at minMatchPct_counts", prefills("p1"),
                        request().profile("minMatchPct", 30).holding("p1", 3), 0.955),
                // Invalid: factor 1.5 is outside 0..1 → 0.5: full match idle → 0.5.
                row("invalid factor_default kept", prefills("p1"),
                        request().profile("hybridCacheLoadFactor", 1.5).holding("p1", 10)
                                .rejects("hybridCacheLoadFactor"), 0.5),
                // Invalid: kv weight −1 must be positive → 0.3: 0 + 0.3 × 1000 = 300.
                row("invalid kv weight_default kept", prefills("p1"),
                        request().profile("tokenLoadKVWeight", -1).load(new FixedLoad().tokens("p1", 0, 1000))
                                .rejects("tokenLoadKVWeight"), 300),
                // Invalid: minMatchPct 101 → 0, so 30 % counts: 0.955.
                row("invalid minMatchPct_default kept", prefills("p1"),
                        request().profile("minMatchPct", 101).holding("p1", 3).rejects("minMatchPct"), 0.955),
                // Invalid environment: AIBRIX_HYBRID_CACHE_LOAD_FACTOR=2 → 0.5: 0.5.
                row("invalid factor in environment_default kept", prefills("p1"),
                        request().env(Map.of("AIBRIX_HYBRID_CACHE_LOAD_FACTOR", "2")).holding("p1", 10)
                                .rejects("AIBRIX_HYBRID_CACHE_LOAD_FACTOR"), 0.5));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void score(ScoreRow row) {
        row.check(new HybridCacheLoadScorer());
    }
}
