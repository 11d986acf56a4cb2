package io.pdgateway.core.routing.score;

import static io.pdgateway.core.PodBuilder.decodes;
import static io.pdgateway.core.routing.Contexts.request;
import static io.pdgateway.core.routing.ScoreRow.row;

import io.pdgateway.core.routing.FixedLoad;
import io.pdgateway.core.routing.ScoreRow;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The decode cold start (spec step 4) around the request's decode policy: once any candidate has a running count, a
 * pod without one scores 1 + its pending decodes and the warm pods are scored by the policy among themselves; with
 * no warm pod, or under token_load (gate off), the policy scores every pod. Covers: the gate on for load_balancing,
 * least_request and conductor and off for token_load, no warm pod, every pod warm, pending counts, the policy's
 * batch being the warm pods only, empty and single candidates.
 */
class ColdStartScorerTest {

    static Stream<ScoreRow> rows() {
        return Stream.of(
                row("no candidates_no scores", decodes(), request()),
                // least_request: d1 warm with 2; d2 never routed → 1 + 0 = 1.
                row("least_request gate on_fresh pod one", decodes("d1", "d2"),
                        request().profile("decodeScorePolicy", "least_request")
                                .load(new FixedLoad().running("d1", 2)), 2, 1),
                // d2 fresh with 3 pending → 1 + 3 = 4.
                row("least_request gate on_pending counted", decodes("d1", "d2"),
                        request().profile("decodeScorePolicy", "least_request")
                                .load(new FixedLoad().running("d1", 2).pending("d2", 3)), 2, 4),
                // No pod warm: the policy scores all: pending {2, 0} → 2, 0 (not 1 + 2, 1 + 0).
                row("no warm pod_policy scores all", decodes("d1", "d2"),
                        request().profile("decodeScorePolicy", "least_request")
                                .load(new FixedLoad().pending("d1", 2)), 2, 0),
                // Every pod warm: the policy as is: 2, 5.
                row("all warm_policy scores all", decodes("d1", "d2"),
                        request().profile("decodeScorePolicy", "least_request")
                                .load(new FixedLoad().running("d1", 2).running("d2", 5)), 2, 5),
                // A single fresh pod has no warm sibling: policy: pending 2 → 2.
                row("single fresh pod_policy", decodes("d1"),
                        request().profile("decodeScorePolicy", "least_request").load(new FixedLoad().pending("d1", 2)),
                        2),
                // load_balancing (default): d1 running 4, d2 running 2 warm; d3 fresh, pending 1 → 2.
                // Warm batch max 4: d1 = 4/4 + 1 = 2; d2 = 2/4 + 1 = 1.5.
                row("load_balancing gate on_fresh pod one plus pending", decodes("d1", "d2", "d3"),
                        request().load(new FixedLoad().running("d1", 4).running("d2", 2).pending("d3", 1)), 2, 1.5, 2),
                // load_balancing: d1 warm with 1; d2 fresh with 3 pending → 4. d1 alone in its batch: max reqs 1 →
                // 1/1 + 1 = 2 (with d2's 3 in the batch it would be 1/3 + 1).
                row("load_balancing_batch is warm pods only", decodes("d1", "d2"),
                        request().load(new FixedLoad().running("d1", 1).pending("d2", 3)), 2, 4),
                // conductor: d1 warm, 1 running, no throughput → 20 × 2 = 40; d2 fresh → 1.
                row("conductor gate on_fresh pod one", decodes("d1", "d2"),
                        request().profile("decodeScorePolicy", "conductor").load(new FixedLoad().running("d1", 1)), 40,
                        1),
                // token_load: gate off: d1 warm 5000 tokens; d2 fresh, 1 pending, 100 tokens → 100 (not 1 + 1).
                row("token_load gate off_ledger scores fresh pod", decodes("d1", "d2"),
                        request().profile("decodeScorePolicy", "token_load").load(new FixedLoad().running("d1", 2)
                                .decodeTokens("d1", 5000, 0).pending("d2", 1).decodeTokens("d2", 100, 0)), 5000, 100));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void score(ScoreRow row) {
        row.check(new ColdStartScorer(new DecodePolicyScorer()));
    }
}
