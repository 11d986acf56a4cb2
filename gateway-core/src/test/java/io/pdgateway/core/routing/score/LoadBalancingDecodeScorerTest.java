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
 * load_balancing decode (spec step 4): (w_run × reqs / max_reqs + w_thru × (1 − thr / max_thr)) / (free / max_free),
 * where reqs = running + pending, max_reqs = max(1, reqs), thr = throughput (absent = 0), max_thr = max(1, observed
 * thr), free = round(100 − kv × 100) (≤ 0 → 0.1; absent kv = 0 → 100), max_free = max(1, free). Covers: each term, a
 * full KV cache staying finite, the rounding edge, absent metrics, the weights, pending requests counted, empty and
 * single candidates, ties, and invalid weights keeping 1.
 */
class LoadBalancingDecodeScorerTest {

    static Stream<ScoreRow> rows() {
        return Stream.of(
                row("no candidates_no scores", decodes(), request()),
                // Idle, no metrics: (0/1 + (1 − 0/1)) / (100/100) = 1.
                row("single idle pod_one", decodes("d1"), request(), 1),
                // d1 running 3, kv 0.2 → free 80; d2 running 1, kv 0.6 → free 40. max_reqs 3, max_free 80:
                // d1 = (3/3 + 1) / (80/80) = 2; d2 = (1/3 + 1) / (40/80) = 2.667.
                row("free kv_divides", decodes("d1", "d2"),
                        request().load(new FixedLoad().running("d1", 3).running("d2", 1).kv("d1", 0.2).kv("d2", 0.6)),
                        2, (1.0 / 3 + 1) / 0.5),
                // Both run 2, throughput 1000 and 250: max_thr 1000: d1 = (1 + 0) = 1; d2 = (1 + 0.75) = 1.75.
                row("throughput_faster pod lower", decodes("d1", "d2"),
                        request().load(new FixedLoad().running("d1", 2).running("d2", 2).throughput("d1", 1000)
                                .throughput("d2", 250)), 1, 1.75),
                // d1 kv 1.0 → free 0 → 0.1; d2 kv 0 → 100; both idle: d1 = 1 / (0.1/100) = 1000; d2 = 1.
                row("full kv_floored free stays finite", decodes("d1", "d2"),
                        request().load(new FixedLoad().kv("d1", 1.0).kv("d2", 0)), 1000, 1),
                // kv 0.996 → round(0.4) = 0 → 0.1; kv 0.994 → round(0.6) = 1. max_free 1: d1 = 1/0.1 = 10; d2 = 1.
                row("kv rounding_below half a percent is full", decodes("d1", "d2"),
                        request().load(new FixedLoad().kv("d1", 0.996).kv("d2", 0.994)), 10, 1),
                // d1 reports 500 tok/s, d2 reports nothing (absent = 0): max_thr 500: d1 = 0 + 0 = 0; d2 = 0 + 1 = 1.
                row("absent throughput_counts as zero", decodes("d1", "d2"),
                        request().load(new FixedLoad().throughput("d1", 500)), 0, 1),
                // NaN kv (scraped without the gauge) counts as empty: free 100 → same as idle: 1.
                row("absent kv_counts as free", decodes("d1"), request().load(new FixedLoad().kv("d1", Double.NaN)),
                        1),
                // d1 running 1 + pending 3 = 4; d2 running 2: max 4: d1 = 1 + 1 = 2; d2 = 0.5 + 1 = 1.5.
                row("pending requests_counted", decodes("d1", "d2"),
                        request().load(new FixedLoad().running("d1", 1).pending("d1", 3).running("d2", 2)), 2, 1.5),
                // Weights 2 and 0: d1 running 4, d2 running 2: d1 = 2 × 4/4 = 2; d2 = 2 × 2/4 = 1.
                row("weights_scale terms", decodes("d1", "d2"),
                        request().profile(Map.of("decodeLBWeightRunning", 2, "decodeLBWeightThroughput", 0))
                                .load(new FixedLoad().running("d1", 4).running("d2", 2)), 2, 1),
                // Equal pods: 1 + 1 = 2 each (a tie).
                row("equal pods_tie", decodes("d1", "d2"),
                        request().load(new FixedLoad().running("d1", 2).running("d2", 2)), 2, 2),
                // Invalid: weight −1 must be ≥ 0 → 1: d1 running 4, d2 2: d1 = 1 + 1 = 2; d2 = 0.5 + 1 = 1.5.
                row("invalid running weight_default kept", decodes("d1", "d2"),
                        request().profile("decodeLBWeightRunning", -1).rejects("decodeLBWeightRunning")
                                .load(new FixedLoad().running("d1", 4).running("d2", 2)), 2, 1.5),
                // Invalid environment: AIBRIX_DECODE_LB_WEIGHT_THROUGHPUT=fast → 1: idle d1 = 1.
                row("invalid throughput weight in environment_default kept", decodes("d1"),
                        request().env(Map.of("AIBRIX_DECODE_LB_WEIGHT_THROUGHPUT", "fast"))
                                .rejects("AIBRIX_DECODE_LB_WEIGHT_THROUGHPUT"), 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void score(ScoreRow row) {
        row.check(new LoadBalancingDecodeScorer());
    }
}
