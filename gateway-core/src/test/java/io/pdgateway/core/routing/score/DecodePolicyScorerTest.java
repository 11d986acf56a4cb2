package io.pdgateway.core.routing.score;

import static io.pdgateway.core.PodBuilder.decodes;
import static io.pdgateway.core.routing.Contexts.request;
import static io.pdgateway.core.routing.ScoreRow.row;

import io.pdgateway.core.routing.Contexts;
import io.pdgateway.core.routing.FixedLoad;
import io.pdgateway.core.routing.ScoreRow;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Step 4's policy scorer scores with the request's decode policy: the profile's decodeScorePolicy, else
 * AIBRIX_DECODE_SCORE_POLICY, else load_balancing. One world, every policy: d1 runs 3, kv 0.2, 100 tok/s, holds 2000
 * prompt tokens routed 3 s ago in sum; d2 runs 1, kv 0.6, no throughput gauge, holds 500. Covers: each policy's
 * formula, the environment default, the profile over the environment, an unknown name keeping the default, empty
 * candidates.
 */
class DecodePolicyScorerTest {

    private static Contexts.Request world() {
        return request().load(new FixedLoad().running("d1", 3).kv("d1", 0.2).throughput("d1", 100)
                .decodeTokens("d1", 2000, 3).running("d2", 1).kv("d2", 0.6).decodeTokens("d2", 500, 0));
    }

    static Stream<ScoreRow> rows() {
        return Stream.of(
                row("no candidates_no scores", decodes(), world()),
                // load_balancing (default): max reqs 3, max thr 100 (d1 only), free 80 and 40, max free 80:
                // d1 = (3/3 + (1 − 1)) / 1 = 1; d2 = (1/3 + (1 − 0)) / 0.5 = 2.667.
                row("default_load_balancing", decodes("d1", "d2"), world(), 1, (1.0 / 3 + 1) / 0.5),
                // least_request: 3, 1.
                row("least_request_running", decodes("d1", "d2"), world().profile("decodeScorePolicy",
                        "least_request"), 3, 1),
                // conductor: d1 1000/100 = 10 ms × (1 + 1/3); d2 20 ms × (1 + 1/1) = 40; no KV pressure.
                row("conductor_estimated tbt", decodes("d1", "d2"), world().profile("decodeScorePolicy", "conductor"),
                        10 * (1 + 1.0 / 3), 40),
                // token_load: d1 2000 + 100/3 tok/s × 3 s = 2100; d2 no rate, borrows 100/3 × 0 s → 500.
                row("token_load_ledger and growth", decodes("d1", "d2"),
                        world().profile("decodeScorePolicy", "token_load"), 2100, 500),
                // Environment least_request, no profile: 3, 1.
                row("environment policy_applies", decodes("d1", "d2"),
                        world().env(Map.of("AIBRIX_DECODE_SCORE_POLICY", "least_request")), 3, 1),
                // Environment least_request, profile token_load: the profile wins: 2100, 500.
                row("profile over environment_profile wins", decodes("d1", "d2"),
                        world().env(Map.of("AIBRIX_DECODE_SCORE_POLICY", "least_request"))
                                .profile("decodeScorePolicy", "token_load"), 2100, 500),
                // Invalid: "fastest" → load_balancing: 1, 2.667.
                row("invalid policy_default kept", decodes("d1", "d2"),
                        world().profile("decodeScorePolicy", "fastest").rejects("decodeScorePolicy"), 1,
                        (1.0 / 3 + 1) / 0.5));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void score(ScoreRow row) {
        row.check(new DecodePolicyScorer());
    }
}
