package io.pdgateway.core.routing.score;

import static io.pdgateway.core.PodBuilder.decodes;
import static io.pdgateway.core.routing.Contexts.request;
import static io.pdgateway.core.routing.ScoreRow.row;

import io.pdgateway.core.routing.FixedLoad;
import io.pdgateway.core.routing.ScoreRow;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * token_load decode (spec step 4): decode_tokens + generated_tokens, where generated = rate × Σ(now − routed_at) and
 * rate = throughput / running, or the mean of the other pods' rates when the pod has none (0 when no pod has one).
 * AIBRIX_DECODE_TOKEN_LOAD_OUTPUT_GROWTH=false scores the prompt tokens only. Covers: with and without output growth,
 * the borrowed mean rate, absent throughput, a pod never routed to scored from the ledger like any other, empty and
 * single candidates, and an invalid growth setting keeping true.
 */
class TokenLoadDecodeScorerTest {
    private static final Map<String, String> NO_GROWTH = Map.of("AIBRIX_DECODE_TOKEN_LOAD_OUTPUT_GROWTH", "false");

    /** d1 holds one long prompt; d2 a short one that has decoded for 100 s at 200 tok/s over 2 requests. */
    private static FixedLoad longPromptVersusLongOutput() {
        return new FixedLoad().running("d1", 0).running("d2", 2).throughput("d2", 200).decodeTokens("d1", 20000, 0)
                .decodeTokens("d2", 1000, 100);
    }

    static Stream<ScoreRow> rows() {
        return Stream.of(
                row("no candidates_no scores", decodes(), request()),
                // 5000 prompt tokens, nothing decoded yet: 5000.
                row("single pod_prompt tokens", decodes("d1"), request().load(new FixedLoad().decodeTokens("d1", 5000, 0)),
                        5000),
                // d2: rate 200 / 2 = 100 tok/s × 100 s = 10000 + 1000 = 11000; d1: no running → borrows 100, age 0 →
                // 20000.
                row("output growth_adds generated tokens", decodes("d1", "d2"),
                        request().load(longPromptVersusLongOutput()), 20000, 11000),
                // Growth off: prompts only: 20000 and 1000.
                row("output growth off_prompt tokens only", decodes("d1", "d2"),
                        request().env(NO_GROWTH).load(longPromptVersusLongOutput()), 20000, 1000),
                // d1 300/3 = 100 tok/s × 2 s = 200; d2 100/2 = 50 × 4 s = 200; d3 never ran: mean (100 + 50)/2 = 75
                // × 10 s = 750.
                row("pod without rate_borrows mean of others", decodes("d1", "d2", "d3"),
                        request().load(new FixedLoad().running("d1", 3).throughput("d1", 300).decodeTokens("d1", 0, 2)
                                .running("d2", 2).throughput("d2", 100).decodeTokens("d2", 0, 4)
                                .decodeTokens("d3", 0, 10)), 200, 200, 750),
                // Running 2 but no throughput gauge and no other pod: rate 0 → 1000.
                row("absent throughput alone_no growth", decodes("d1"),
                        request().load(new FixedLoad().running("d1", 2).decodeTokens("d1", 1000, 50)), 1000),
                // d1 never routed (no running count) but the ledger holds 3000: 3000, no cold-start score.
                row("never routed pod_scored from ledger", decodes("d1", "d2"),
                        request().load(new FixedLoad().decodeTokens("d1", 3000, 0).running("d2", 1)
                                .decodeTokens("d2", 100, 0)), 3000, 100),
                row("equal ledgers_tie", decodes("d1", "d2"),
                        request().load(new FixedLoad().decodeTokens("d1", 800, 0).decodeTokens("d2", 800, 0)), 800, 800),
                // Invalid environment: growth "maybe" is not a boolean → true: 11000 as with growth.
                row("invalid growth setting_default kept", decodes("d2"),
                        request().env(Map.of("AIBRIX_DECODE_TOKEN_LOAD_OUTPUT_GROWTH", "maybe"))
                                .rejects("AIBRIX_DECODE_TOKEN_LOAD_OUTPUT_GROWTH").load(longPromptVersusLongOutput()),
                        11000));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void score(ScoreRow row) {
        row.check(new TokenLoadDecodeScorer());
    }
}
