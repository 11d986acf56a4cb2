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
 * predicted_ttft prefill (pd-gateway's own): score = the pod's predicted answer for the uncached part (its queue ahead
 * plus its compute) + the KV transfer of the whole prompt (kvTransferSetupMs + kvTransferMsPer1kTokens per 1,000
 * tokens; defaults 1 and 5.24) + predictedTtftWorkWeight (default 1) × the compute the leg adds to the pod. Covers: the
 * pods' own speeds, the cache shortening answer and added work, the queue counted once and the work once more, weight
 * 0 (greedy on the first token), a pod without a model unscored, the transfer sized by the whole prompt, the transfer
 * knobs, and an invalid weight keeping its default. Pods' models are "queue ms, fixed ms, ms per uncached token"; the
 * prompt is 160 tokens unless a row says otherwise, ten 16-token blocks, so holding k blocks caches 16·k tokens.
 */
class PredictedTtftScorerTest {
    /** 1 + 5.24 × 160 / 1000. */
    private static final double TRANSFER_160 = 1.8384;

    static Stream<ScoreRow> rows() {
        return Stream.of(
                row("no candidates_no scores", prefills(), request().promptTokens(160)),
                // p1: 10 + 0.1 × 160 = 26 answer, 26 work → 26 + 1.8384 + 26; p2: 36 and 36.
                row("idle pods_their own speed decides", prefills("p1", "p2"), request().promptTokens(160)
                        .load(new FixedLoad().prefillModel("p1", 0, 10, 0.1).prefillModel("p2", 0, 20, 0.1)),
                        26 + TRANSFER_160 + 26, 36 + TRANSFER_160 + 36),
                // p1 holds 5 blocks (80 tokens): 80 uncached → 18 answer, 18 work; p2 computes all 160.
                row("cache_shortens answer and added work", prefills("p1", "p2"), request().promptTokens(160)
                        .holding("p1", 5).load(new FixedLoad().prefillModel("p1", 0, 10, 0.1)
                                .prefillModel("p2", 0, 10, 0.1)),
                        18 + TRANSFER_160 + 18, 26 + TRANSFER_160 + 26),
                // p1 holds everything but has 30 ms queued: answer 30 + 10, work 10 → 51.8384 just beats idle p2's
                // 53.8384: the queue counts once, the added work once more.
                row("queue ahead_counted once", prefills("p1", "p2"), request().promptTokens(160).holding("p1", 10)
                        .load(new FixedLoad().prefillModel("p1", 30, 10, 0.1).prefillModel("p2", 0, 10, 0.1)),
                        40 + TRANSFER_160 + 10, 26 + TRANSFER_160 + 26),
                // Weight 0: the first token alone: p1 40 + transfer, p2 26 + transfer → p2 now.
                row("work weight zero_greedy on the first token", prefills("p1", "p2"), request().promptTokens(160)
                        .holding("p1", 10).profile("predictedTtftWorkWeight", 0)
                        .load(new FixedLoad().prefillModel("p1", 30, 10, 0.1).prefillModel("p2", 0, 10, 0.1)),
                        40 + TRANSFER_160, 26 + TRANSFER_160),
                // p1 has no model (nothing known): NaN, not scored; p2 as above.
                row("pod without a model_not scored", prefills("p1", "p2"), request().promptTokens(160)
                        .load(new FixedLoad().prefillModel("p2", 0, 10, 0.1)), Double.NaN, 26 + TRANSFER_160 + 26),
                // 1,600 tokens, 160 cached: 1,440 uncached → 154 answer and work; the transfer moves all 1,600:
                // 1 + 5.24 × 1.6 = 9.384 (prefix hits do not shrink it).
                row("transfer_sized by the whole prompt", prefills("p1"), request().promptTokens(1600).holding("p1", 10)
                        .load(new FixedLoad().prefillModel("p1", 0, 10, 0.1)), 154 + 9.384 + 154),
                // Profile knobs: setup 10 ms, nothing per token: 26 + 10 + 26.
                row("transfer knobs_from the profile", prefills("p1"), request().promptTokens(160)
                        .profile(java.util.Map.of("kvTransferSetupMs", 10, "kvTransferMsPer1kTokens", 0))
                        .load(new FixedLoad().prefillModel("p1", 0, 10, 0.1)), 26 + 10 + 26),
                // Invalid: a negative weight is refused, 1 kept.
                row("invalid work weight_default kept", prefills("p1"), request().promptTokens(160)
                        .profile("predictedTtftWorkWeight", -1).rejects("predictedTtftWorkWeight")
                        .load(new FixedLoad().prefillModel("p1", 0, 10, 0.1)), 26 + TRANSFER_160 + 26));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void score(ScoreRow row) {
        row.check(new PredictedTtftScorer());
    }
}
