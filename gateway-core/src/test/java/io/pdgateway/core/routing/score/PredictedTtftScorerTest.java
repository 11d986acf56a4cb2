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
 * knobs, and an invalid weight keeping its default. The recompute of a prefix other pods hold is waived beyond this
 * request's share, (holders + 1) / (recent requests that carried it), at most 1, once in the answer and once in the
 * added work: rows for a popular prefix, one few requests share, and two levels (a conversation one pod holds on a
 * system prompt two hold). Pods' models are "queue ms, fixed ms, ms per uncached token"; the prompt is 160 tokens
 * unless a row says otherwise, ten 16-token blocks, so holding k blocks caches 16·k tokens.
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
                // p1 holds 5 blocks that 20 recent requests carried: 1 holder, so p2 bears (1 + 1) / 20 = 0.1 of their
                // recompute (80 tokens, 8 ms); 0.9 × 8 = 7.2 ms is waived from its answer and from its added work.
                row("popular prefix held elsewhere_recompute shared", prefills("p1", "p2"), request().promptTokens(160)
                        .holding("p1", 5).load(new FixedLoad().prefillModel("p1", 0, 10, 0.1)
                                .prefillModel("p2", 0, 10, 0.1).prefixRequests(5, 20)),
                        18 + TRANSFER_160 + 18, 26 + TRANSFER_160 + 26 - 2 * 0.9 * 8),
                // Only 2 recent requests: (1 + 1) / 2 = 1, the whole recompute is this request's (as before demand).
                row("prefix few requests share_charged in full", prefills("p1", "p2"), request().promptTokens(160)
                        .holding("p1", 5).load(new FixedLoad().prefillModel("p1", 0, 10, 0.1)
                                .prefillModel("p2", 0, 10, 0.1).prefixRequests(5, 2)),
                        18 + TRANSFER_160 + 18, 26 + TRANSFER_160 + 26),
                // p1 holds the whole prompt (a conversation: 1 recent request), p2 its first 5 blocks (a system prompt
                // of 40 recent requests, 2 holders: share 3 / 40). p2 bears all of blocks 5-10; p3 all of them too and
                // 3/40 of blocks 0-5: 0.925 × 8 ms waived twice.
                row("conversation on a shared system prompt_each level its own share", prefills("p1", "p2", "p3"),
                        request().promptTokens(160).holding("p1", 10).holding("p2", 5)
                                .load(new FixedLoad().prefillModel("p1", 0, 10, 0.1).prefillModel("p2", 0, 10, 0.1)
                                        .prefillModel("p3", 0, 10, 0.1).prefixRequests(10, 1).prefixRequests(5, 40)),
                        10 + TRANSFER_160 + 10, 18 + TRANSFER_160 + 18, 26 + TRANSFER_160 + 26 - 2 * 0.925 * 8),
                // Both levels popular: blocks 5-10 (1 holder, 20 requests: share 0.1) and 0-5 (2 holders, 40: 3/40).
                // Each segment is waived once: p2 0.9 × 8; p3 0.9 × 8 + 0.925 × 8.
                row("two popular levels_each segment waived once", prefills("p1", "p2", "p3"),
                        request().promptTokens(160).holding("p1", 10).holding("p2", 5)
                                .load(new FixedLoad().prefillModel("p1", 0, 10, 0.1).prefillModel("p2", 0, 10, 0.1)
                                        .prefillModel("p3", 0, 10, 0.1).prefixRequests(10, 20).prefixRequests(5, 40)),
                        10 + TRANSFER_160 + 10, 18 + TRANSFER_160 + 18 - 2 * 0.9 * 8,
                        26 + TRANSFER_160 + 26 - 2 * (0.9 * 8 + 0.925 * 8)),
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
