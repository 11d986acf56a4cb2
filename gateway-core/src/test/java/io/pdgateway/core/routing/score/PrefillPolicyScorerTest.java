package io.pdgateway.core.routing.score;

import static io.pdgateway.core.PodBuilder.prefills;
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
 * Step 3's policy scorer scores with the request's prefill policy: the profile's prefillScorePolicy, else
 * AIBRIX_PREFILL_SCORE_POLICY, else prefix_cache. One world, every policy: p1 holds the whole 100-token prompt, has 2
 * in flight (no histogram) and 1000 active tokens; p2 is idle and holds nothing. Covers: each policy's formula, the
 * environment default, the profile over the environment, case and blanks in the name, an unknown name keeping the
 * default, empty candidates.
 */
class PrefillPolicyScorerTest {
    /** prefill(512) ≈ 16.585 ms per queued request without a histogram. */
    private static final double QUEUED_512 = 0.001 * Math.pow(512, 1.5) + 5;

    private static Contexts.Request world() {
        return request().holding("p1", 10).load(new FixedLoad().prefilling("p1", 2).tokens("p1", 1000, 0));
    }

    static Stream<ScoreRow> rows() {
        return Stream.of(
                row("no candidates_no scores", prefills(), request()),
                // prefix_cache (default): p1 = 0 + 2/2 = 1; p2 = 10 + 0 = 10.
                row("default_prefix_cache", prefills("p1", "p2"), world(), 1, 10),
                // least_request: 2, 0.
                row("least_request_in flight", prefills("p1", "p2"), world().profile("prefillScorePolicy",
                        "least_request"), 2, 0),
                // token_load: 1000 + 0.3 × 0 = 1000; 0.
                row("token_load_tokens", prefills("p1", "p2"), world().profile("prefillScorePolicy", "token_load"),
                        1000, 0),
                // hybrid_cache_load: p1 busy, full match → 1000 × 0.5 = 500; p2 idle → 1.
                row("hybrid_cache_load_discounted load", prefills("p1", "p2"),
                        world().profile("prefillScorePolicy", "hybrid_cache_load"), 500, 1),
                // conductor: p1 queue 2 × prefill(512), prefix 0.005 × 100 + 1 = 1.5; p2 prefill(100) = 6.
                row("conductor_estimated ttft", prefills("p1", "p2"),
                        world().profile("prefillScorePolicy", "conductor"), 2 * QUEUED_512 + 1.5, 6),
                // Environment token_load, no profile: 1000, 0.
                row("environment policy_applies", prefills("p1", "p2"),
                        world().env(Map.of("AIBRIX_PREFILL_SCORE_POLICY", "token_load")), 1000, 0),
                // Environment token_load, profile least_request: the profile wins: 2, 0.
                row("profile over environment_profile wins", prefills("p1", "p2"),
                        world().env(Map.of("AIBRIX_PREFILL_SCORE_POLICY", "token_load"))
                                .profile("prefillScorePolicy", "least_request"), 2, 0),
                // " Least_Request " is least_request: 2, 0.
                row("name case and blanks_ignored", prefills("p1", "p2"),
                        world().profile("prefillScorePolicy", " Least_Request "), 2, 0),
                // Invalid: "fastest" is no policy → prefix_cache: 1, 10.
                row("invalid policy_default kept", prefills("p1", "p2"),
                        world().profile("prefillScorePolicy", "fastest").rejects("prefillScorePolicy"), 1, 10));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void score(ScoreRow row) {
        row.check(new PrefillPolicyScorer());
    }
}
