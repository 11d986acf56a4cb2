package io.pdgateway.core.routing.pick;

import static io.pdgateway.core.PodBuilder.plain;
import static io.pdgateway.core.routing.Contexts.request;
import static io.pdgateway.core.routing.PickRow.row;

import io.pdgateway.core.routing.FixedLoad;
import io.pdgateway.core.routing.PickRow;
import io.pdgateway.core.routing.Picks;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * prefix-cache (reference §5.5): when max − min running > 8, or the request has no prefix hashes, least-request;
 * otherwise the pod with the longest match among those with running ≤ mean + k × sample sd (k =
 * AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR), else least-request. Covers: the spread rule and its edge, no hashes,
 * the longest match, an overloaded holder passed over, k, equal matches spread over the holders, empty and single
 * candidates, and an invalid k keeping 1. The prompt has 10 blocks; holding k blocks is a k × 10 % match.
 */
class PrefixCachePodPickerTest {

    static Stream<PickRow> rows() {
        return Stream.of(
                row("no candidates_none", plain(), request(), Picks.NONE),
                row("single pod without match_it", plain("a"), request().load(new FixedLoad().running("a", 3)), "a"),
                // No hashes: least-request: running {3, 1} → b although a holds the prefix.
                row("no prefix hashes_least request", plain("a", "b"),
                        request().noHashes().holding("a", 10).load(new FixedLoad().running("a", 3).running("b", 1)),
                        "b"),
                // b holds it, running {0, 3}: spread 3 ≤ 8; mean 1.5, sd 2.12 → limit 3.62 ≥ 3 → b.
                row("holder within spread_holder", plain("a", "b"),
                        request().holding("b", 10).load(new FixedLoad().running("b", 3)), "b"),
                // Running {0, 9}: spread 9 > 8 → least-request → a.
                row("spread above eight_least request", plain("a", "b"),
                        request().holding("b", 10).load(new FixedLoad().running("b", 9)), "a"),
                // Running {0, 8}: spread 8 is not above 8; mean 4, sd 5.66 → limit 9.66 → b.
                row("spread of eight_holder", plain("a", "b"),
                        request().holding("b", 10).load(new FixedLoad().running("b", 8)), "b"),
                // a holds 4 blocks (40 %), b all 10 → b.
                row("longest match_wins", plain("a", "b"), request().holding("a", 4).holding("b", 10), "b"),
                // a holds 3 blocks and runs 2, b nothing and idle: mean 1, sd 1.41 → limit 2.41 ≥ 2 → a.
                row("any match_beats none", plain("a", "b"),
                        request().holding("a", 3).load(new FixedLoad().running("a", 2)), "a"),
                // c holds it but runs 6 of {0, 0, 6}: mean 2, sd √12 ≈ 3.46 → limit 5.46 < 6 → least-request:
                // a and b tie at 0.
                row("overloaded holder_least request", plain("a", "b", "c"),
                        request().holding("c", 10).load(new FixedLoad().running("c", 6)), "a", "b"),
                // k = 2: limit 2 + 6.93 = 8.93 ≥ 6 → c.
                row("larger factor_holder kept", plain("a", "b", "c"),
                        request().env(Map.of("AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR", "2")).holding("c", 10)
                                .load(new FixedLoad().running("c", 6)), "c"),
                // a and b both hold the whole prefix, both idle: a tie, whoever comes first in the list.
                row("equal matches_both holders picked", plain("a", "b", "c"),
                        request().holding("a", 10).holding("b", 10), "a", "b"),
                // Invalid: k = 0 must be positive → 1: as "overloaded holder": a or b.
                row("invalid factor_default kept", plain("a", "b", "c"),
                        request().env(Map.of("AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR", "0"))
                                .rejects("AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR").holding("c", 10)
                                .load(new FixedLoad().running("c", 6)), "a", "b"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void pick(PickRow row) {
        row.check(new PrefixCachePodPicker());
    }
}
