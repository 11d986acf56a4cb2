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
 * token_load prefill (spec step 3): score = active_tokens + kv_weight × kv_tokens (kv_weight 0.3). Covers: one long
 * prompt outweighing many short ones, resident KV weighted, the in-flight count and the prefix cache not read, empty
 * and single candidates, and an invalid kv weight keeping 0.3.
 */
class TokenLoadPrefillScorerTest {

    static Stream<ScoreRow> rows() {
        return Stream.of(
                row("no candidates_no scores", prefills(), request()),
                // Nothing charged: 0.
                row("single idle pod_zero", prefills("p1"), request(), 0),
                // p1 one 30000-token prompt: 30000 + 0.3 × 30000 = 39000; p2 four short ones: 2000 + 0.3 × 2000 = 2600.
                row("long prompt_outweighs short ones", prefills("p1", "p2"),
                        request().load(new FixedLoad().prefilling("p1", 1).prefilling("p2", 4)
                                .tokens("p1", 30000, 30000).tokens("p2", 2000, 2000)), 39000, 2600),
                // Only resident KV: 0 + 0.3 × 10000 = 3000.
                row("kv only_weighted", prefills("p1"), request().load(new FixedLoad().tokens("p1", 0, 10000)), 3000),
                // tokenLoadKVWeight 0.5: 1000 + 500 = 1500.
                row("kv weight override_applies", prefills("p1"),
                        request().profile("tokenLoadKVWeight", 0.5).load(new FixedLoad().tokens("p1", 1000, 1000)),
                        1500),
                // 10 requests in flight but nothing charged: 0 (token_load does not count requests).
                row("in-flight count_not read", prefills("p1"), request().load(new FixedLoad().prefilling("p1", 10)),
                        0),
                // p1 holds the whole prefix: still 500 (token_load does not consult the cache).
                row("prefix match_not read", prefills("p1"),
                        request().holding("p1", 10).load(new FixedLoad().tokens("p1", 500, 0)), 500),
                // Equal charges: 700 + 0.3 × 100 = 730 each (a tie).
                row("equal charges_tie", prefills("p1", "p2"),
                        request().load(new FixedLoad().tokens("p1", 700, 100).tokens("p2", 700, 100)), 730, 730),
                // Invalid: kv weight 0 must be positive → 0.3: 1000 + 300 = 1300.
                row("invalid kv weight_default kept", prefills("p1"),
                        request().profile("tokenLoadKVWeight", 0).load(new FixedLoad().tokens("p1", 1000, 1000))
                                .rejects("tokenLoadKVWeight"), 1300));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void score(ScoreRow row) {
        row.check(new TokenLoadPrefillScorer());
    }
}
