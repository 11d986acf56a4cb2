package io.pdgateway.core.routing;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.cache.CachedPrefixes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One row per rule of the spec's "Pod Selection Algorithm", steps 0-5: given pods, profiles, metrics and in-flight
 * counts, the expected prefill and target pod and the steps that decided. Every row is built so that no tie decides
 * it; each row's comment works the numbers out. Pods are named p (prefill), d (decode), s (standard).
 */
class PdCascadeStepsTest {
    /** A prompt of 10 full blocks for the prefix-cache view. */
    private static final long[] PROMPT = CachedPrefixes.prompt(10, 1);

    record Row(String name, boolean bucketing, List<Pod> pods, FixedLoad load, int promptTokens,
            Map<String, Object> knobs, String prefixHolder, int heldBlocks, String prefill, String target, String step) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Row row(String name, List<Pod> pods, FixedLoad load, Map<String, Object> knobs, String prefill,
            String target, String step) {
        return new Row(name, false, pods, load, 100, knobs, null, 0, prefill, target, step);
    }

    private static Row bucketRow(String name, List<Pod> pods, FixedLoad load, int promptTokens, String target,
            String step) {
        // Bucket rows have one roleset (p1, d1): a PD answer is always that pair.
        String prefill = "d1".equals(target) ? "p1" : null;
        return new Row(name, true, pods, load, promptTokens, Map.of(), null, 0, prefill, target, step);
    }

    private static List<Pod> rolesets(int count) {
        Pod[] pods = new Pod[count * 2];
        for (int i = 1; i <= count; i++) {
            pods[2 * i - 2] = pod("p" + i).prefill("rs" + i).build();
            pods[2 * i - 1] = pod("d" + i).decode("rs" + i).build();
        }
        return List.of(pods);
    }

    private static final Map<String, Object> LEAST = Map.of("prefillScorePolicy", "least_request",
            "decodeScorePolicy", "least_request");

    static Stream<Row> rows() {
        List<Pod> bucketed = List.of(pod("p1").prefill("rs1").bucket(0, 100).build(),
                pod("d1").decode("rs1").bucket(0, 100).build(), pod("s").standard(0, 0).build());
        return Stream.of(
                // ---- Step 0: bucketing, standard fallback, shouldPickCombined ----
                // Prompt 50 is inside rs1's [0,100] on both sides → PD pair, scored.
                bucketRow("0 bucket covers_pair", bucketed, new FixedLoad(), 50, "d1", "final-score"),
                // Prompt 500 is outside [0,100]; s covers everything → standard pod.
                bucketRow("0 outside bucket_standard", bucketed, new FixedLoad(), 500, "s", "bucket-fallback"),
                // Standard pod covers only 1000+: prompt 500 has nowhere to go → 503 no bucket match.
                bucketRow("0 standard range excludes_none", List.of(pod("p1").prefill("rs1").bucket(0, 100).build(),
                        pod("d1").decode("rs1").bucket(0, 100).build(), pod("s").standard(1000, 0).build()),
                        new FixedLoad(), 500, null, "no-candidate"),
                // s(p1) = waiting 10 / drain 5 = 2 > 1 (PD high); s(s) = 0 / 8 = 0 < 0.25 (idle) → overflow.
                bucketRow("0 prefill busy standard idle_overflow", bucketed,
                        new FixedLoad().waiting("p1", 10).drain("p1", 5).waiting("s", 0).drain("s", 8), 50, "s",
                        "combined-overflow"),
                // Decode high instead: s(d1) = 10/5 = 2; s(s) = 0 → overflow.
                bucketRow("0 decode busy standard idle_overflow", bucketed,
                        new FixedLoad().waiting("d1", 10).drain("d1", 5).waiting("s", 0).drain("s", 8), 50, "s",
                        "combined-overflow"),
                // The standard pod is busy too: s(s) = 10/5 = 2, not < 0.25 → PD.
                bucketRow("0 standard busy_pd", bucketed,
                        new FixedLoad().waiting("p1", 10).drain("p1", 5).waiting("s", 10).drain("s", 5), 50, "d1",
                        "final-score"),
                // PD not busy: s(p1) = 1/5 = 0.2 ≤ 1 → PD even with an idle standard pod.
                bucketRow("0 pd not busy_pd", bucketed,
                        new FixedLoad().waiting("p1", 1).drain("p1", 5).waiting("s", 0).drain("s", 8), 50, "d1",
                        "final-score"),
                // A standard pod that has never served (no drain history) with nothing queued is idle: s = 0 → overflow.
                // (Upstream computes 0/0 = NaN here and never overflows to a cold standard pod.)
                bucketRow("0 cold idle standard pod_overflow", bucketed, new FixedLoad().waiting("p1", 10).drain("p1", 5),
                        50, "s", "combined-overflow"),
                // A standard pod with work queued and no drain history: 3/0 = +Inf, not idle → PD.
                bucketRow("0 standard queued no drain_pd", bucketed,
                        new FixedLoad().waiting("p1", 10).drain("p1", 5).waiting("s", 3), 50, "d1", "final-score"),

                // ---- Step 1: prefill load-imbalance fast path (strict >) ----
                // In flight {5,40,45}: spread 40 > 16 → p1, decode aligned to rs1 even though d1 is the busiest decode.
                row("1 prefill spread_least loaded prefill", rolesets(3),
                        new FixedLoad().prefilling("p1", 5).prefilling("p2", 40).prefilling("p3", 45).running("d1", 9)
                                .running("d2", 0).running("d3", 0), LEAST, "p1", "d1", "prefill-imbalance,final-score"),
                // {0,16}: spread 16 is not > 16 → no fast path; least_request scoring: rs1 = 0/16 + 5/5 = 1,
                // rs2 = 16/16 + 0/5 = 1... avoid the tie: d1 runs 4 → rs1 = 0 + 4/4 = 1, rs2 = 1 + 0 → tie again;
                // so d2 runs 1: rs1 = 0 + 4/4 = 1, rs2 = 16/16 + 1/4 = 1.25 → rs1 by score, not by fast path.
                row("1 spread equal threshold_no fast path", rolesets(2),
                        new FixedLoad().prefilling("p2", 16).running("d1", 4).running("d2", 1), LEAST, "p1", "d1",
                        "final-score"),

                // ---- Step 2: decode load-imbalance fast paths ----
                // Running {2,40,35}, all observed: spread 38 ≥ 16 → d1; prefill aligned to rs1 although p1 is busiest.
                row("2 request spread_least loaded decode", rolesets(3),
                        new FixedLoad().running("d1", 2).running("d2", 40).running("d3", 35).prefilling("p1", 9),
                        LEAST, "p1", "d1", "decode-request-spread,final-score"),
                // Spread exactly 16 fires (≥): {0,16} → d1.
                row("2 request spread equal threshold_fires", rolesets(2),
                        new FixedLoad().running("d1", 0).running("d2", 16).prefilling("p1", 3), LEAST, "p1", "d1",
                        "decode-request-spread,final-score"),
                // d3 has no running count yet (never routed): excluded from the spread; {20,10} spread 10 < 16 → no
                // fast path. Scoring: d3 gets the cold-start score 1 + 0 = 1 < 10 < 20 → rs3.
                row("2 unobserved pod excluded from spread", rolesets(3),
                        new FixedLoad().running("d1", 20).running("d2", 10), LEAST, "p3", "d3", "final-score"),
                // Throughput {50, 3000}, running {10,12}: spread 2950 > 2048 → lowest throughput d1.
                row("2 throughput spread_lowest throughput", rolesets(2),
                        new FixedLoad().running("d1", 10).running("d2", 12).throughput("d1", 50).throughput("d2", 3000)
                                .prefilling("p1", 2), LEAST, "p1", "d1", "decode-throughput-spread,final-score"),
                // Throughput {100, 200}: spread 100 → no fast path; least_request: rs1 = 0/1 + 12/12 = 1,
                // rs2 = 0 + 10/12 = 0.83 → rs2 by score.
                row("2 small throughput spread_no fast path", rolesets(2),
                        new FixedLoad().running("d1", 12).running("d2", 10).throughput("d1", 100).throughput("d2", 200),
                        LEAST, "p2", "d2", "final-score"),
                // Drain: running {8,6}, drain {2.0,0.3} → 8/2 = 4 vs 6/0.3 = 20; 20/4 = 5 > 1.5 → d1
                // (least_request scoring alone would have picked d2 with 6 < 8).
                row("2 drain ratio_fastest drain", rolesets(2),
                        new FixedLoad().running("d1", 8).running("d2", 6).drain("d1", 2.0).drain("d2", 0.3), LEAST,
                        "p1", "d1", "decode-drain-rate,final-score"),
                // Drain {2.0, 1.5}: 4 vs 4 → ratio 1 → no fast path; scoring picks d2 (6 < 8).
                row("2 drain ratio low_no fast path", rolesets(2),
                        new FixedLoad().running("d1", 8).running("d2", 6).drain("d1", 2.0).drain("d2", 1.5), LEAST,
                        "p2", "d2", "final-score"),
                // d2 has no drain rate: check 3 needs every pod draining → no fast path; scoring picks d2.
                row("2 drain missing on one pod_no fast path", rolesets(2),
                        new FixedLoad().running("d1", 8).running("d2", 6).drain("d1", 2.0), LEAST, "p2", "d2",
                        "final-score"),
                // Both fire: in flight {0 (rs1), 30 (rs2)}... p1 wins step 1; rs1 has two decodes {0, 20} → d1a.
                row("1+2 both fast paths", List.of(pod("p1").prefill("rs1").build(), pod("d1a").decode("rs1").build(),
                                pod("d1b").decode("rs1").build(), pod("p2").prefill("rs2").build(),
                                pod("d2").decode("rs2").build()),
                        new FixedLoad().prefilling("p2", 30).running("d1a", 0).running("d1b", 20).running("d2", 0),
                        LEAST, "p1", "d1a", "prefill-imbalance,decode-request-spread,final-score"),
                // Under decodeScorePolicy token_load the decode fast path is skipped (spec, token_load decode side).
                row("2 token_load decode_fast path skipped", rolesets(3),
                        new FixedLoad().running("d1", 2).running("d2", 40).running("d3", 35).prefilling("p2", 1)
                                .prefilling("p3", 1), Map.of("prefillScorePolicy", "least_request",
                                "decodeScorePolicy", "token_load"), "p1", "d1", "final-score"),

                // ---- Step 3: prefill scoring ----
                // prefix_cache: p2 holds all 10 blocks: (100−100)×0.1 + 3/3 = 1 vs p1 (100−0)×0.1 + 0 = 10 → p2.
                new Row("3 prefix_cache_prefix holder wins", false, rolesets(2), new FixedLoad().prefilling("p2", 3),
                        100, Map.of(), "p2", 10, "p2", "d2", "final-score"),
                // AIBRIX_MIN_MATCH_PCT 30: p2 holds 2 of 10 blocks = 20 % < 30 → no match; p1 idle wins:
                // p1 = 10 + 0, p2 = 10 + 3/3 = 11.
                new Row("3 prefix_cache below min match_ignored", false, rolesets(2),
                        new FixedLoad().prefilling("p2", 3), 100, Map.of("minMatchPct", 30), "p2", 2, "p1", "d1",
                        "final-score"),
                // Same 20 % without a threshold: p2 = 8 + 1 = 9 < p1 = 10 → p2.
                new Row("3 prefix_cache small match_counts without threshold", false, rolesets(2),
                        new FixedLoad().prefilling("p2", 3), 100, Map.of(), "p2", 2, "p2", "d2", "final-score"),
                // least_request: in flight {3, 7} → p1.
                row("3 least_request_fewest in flight", rolesets(2),
                        new FixedLoad().prefilling("p1", 3).prefilling("p2", 7), LEAST, "p1", "d1", "final-score"),
                // conductor, 100-token prompt, no match: p1 has 3 in flight × 2 ms = 6 ms of queue; p2 none → p2.
                row("3 conductor_shorter queue", rolesets(2),
                        new FixedLoad().prefilling("p1", 3).avgPrefillMillis("p1", 2),
                        Map.of("prefillScorePolicy", "conductor", "decodeScorePolicy", "least_request"), "p2", "d2",
                        "final-score"),
                // Stddev filter: in flight {0,0,0,10}: mean 2.5, sample sd 5 → limit 7.5 → p4 (the prefix holder,
                // score 0 + 10/10 = 1) is skipped; p1..p3 tie on 10 + 0 but their decodes differ: d2 runs 0,
                // d1 and d3 run 1 → rs2.
                new Row("3 stddev filter_overloaded holder skipped", false, rolesets(4),
                        new FixedLoad().prefilling("p4", 10).running("d1", 1).running("d2", 0).running("d3", 1)
                                .running("d4", 0), 100, Map.of("decodeScorePolicy", "least_request"), "p4", 10, "p2",
                        "d2", "final-score"),

                // token_load: p1 = 30000 active + 0.3 × 30000 kv = 39000 (one long prompt); p2 = 4 short ones of 500
                // → 2000 + 0.3 × 2000 = 2600 → p2, though p2 has more requests in flight (least_request picks p1).
                row("3 token_load_short prompts away from the long one", rolesets(2),
                        new FixedLoad().prefilling("p1", 1).prefilling("p2", 4).tokens("p1", 30000, 30000)
                                .tokens("p2", 2000, 2000),
                        Map.of("prefillScorePolicy", "token_load", "decodeScorePolicy", "least_request"), "p2", "d2",
                        "final-score"),
                // hybrid_cache_load, idle pods: p1 holds the whole prefix: discount 1 − 1 × 0.5 = 0.5; p2 none: 1 → p1.
                new Row("3 hybrid idle pods_cache decides", false, rolesets(2), new FixedLoad(), 100,
                        Map.of("prefillScorePolicy", "hybrid_cache_load", "decodeScorePolicy", "least_request"),
                        "p1", 10, "p1", "d1", "final-score"),
                // hybrid, busy pods: p1 holds the prefix but carries 10000: 10000 × 0.5 = 5000 > p2's 4000 × 1 → p2
                // (a full match halves the load; p1 loses beyond twice p2's load).
                new Row("3 hybrid busy pods_load decides", false, rolesets(2),
                        new FixedLoad().tokens("p1", 10000, 0).tokens("p2", 4000, 0), 100,
                        Map.of("prefillScorePolicy", "hybrid_cache_load", "decodeScorePolicy", "least_request"),
                        "p1", 10, "p2", "d2", "final-score"),
                // hybrid with p1 at 3000: 3000 × 0.5 = 1500 < 4000 → the holder wins.
                new Row("3 hybrid busy pods_match discounts", false, rolesets(2),
                        new FixedLoad().tokens("p1", 3000, 0).tokens("p2", 4000, 0), 100,
                        Map.of("prefillScorePolicy", "hybrid_cache_load", "decodeScorePolicy", "least_request"),
                        "p1", 10, "p1", "d1", "final-score"),

                // ---- Step 4: decode scoring ----
                // load_balancing: d1 running 3, kv 0.2 → free 80; d2 running 1, kv 0.6 → free 40. maxReq 3, maxFree 80.
                // d1 = (3/3 + 1) / (80/80) = 2; d2 = (1/3 + 1) / (40/80) = 2.67 → d1 despite more requests.
                row("4 load_balancing_free kv matters", rolesets(2),
                        new FixedLoad().running("d1", 3).running("d2", 1).kv("d1", 0.2).kv("d2", 0.6),
                        Map.of("prefillScorePolicy", "least_request"), "p1", "d1", "final-score"),
                // least_request decode: running {4, 2} → d2.
                row("4 least_request_fewest running", rolesets(2), new FixedLoad().running("d1", 4).running("d2", 2),
                        LEAST, "p2", "d2", "final-score"),
                // conductor decode: d1 thr 50, running 4, kv 0.95 → (1000/50)(1 + 1/4) × 1.5 = 37.5;
                // d2 thr 0 (20 ms), running 2, kv 0.5 → 20 × 1.5 = 30 → d2.
                row("4 conductor_lower estimated tbt", rolesets(2),
                        new FixedLoad().running("d1", 4).running("d2", 2).throughput("d1", 50).kv("d1", 0.95)
                                .kv("d2", 0.5), Map.of("prefillScorePolicy", "least_request",
                                "decodeScorePolicy", "conductor"), "p2", "d2", "final-score"),
                // Cold start: d1 observed with 2 running; d2 never routed → 1 + pending 0 = 1 < 2 → d2.
                row("4 cold start_fresh pod competes", rolesets(2), new FixedLoad().running("d1", 2), LEAST, "p2", "d2",
                        "final-score"),
                // Cold start with 3 pending: d2 = 1 + 3 = 4 > d1's 2 (+ its share) → d1.
                row("4 cold start pending_counts", rolesets(2), new FixedLoad().running("d1", 2).pending("d2", 3),
                        LEAST, "p1", "d1", "final-score"),

                // token_load decode: d1 holds 20000 prompt tokens, d2 1000 but has decoded for 100 s at
                // 200 tok/s / 2 running = 100 tok/s per request → 1000 + 100 × 100 = 11000 < 20000 → d2.
                // The request-count spread (d1 0 vs d2 40) would have fired under other policies; here it is skipped.
                row("4 token_load_prompt and output growth", rolesets(2),
                        new FixedLoad().running("d1", 0).running("d2", 2).throughput("d2", 200)
                                .decodeTokens("d1", 20000, 0).decodeTokens("d2", 1000, 100),
                        Map.of("prefillScorePolicy", "least_request", "decodeScorePolicy", "token_load"), "p2", "d2",
                        "final-score"),
                // Same, but d2's growth is 100 × 300 s = 30000: 31000 > 20000 → d1.
                row("4 token_load_long outputs count", rolesets(2),
                        new FixedLoad().running("d1", 0).running("d2", 2).throughput("d2", 200)
                                .decodeTokens("d1", 20000, 0).decodeTokens("d2", 1000, 300),
                        Map.of("prefillScorePolicy", "least_request", "decodeScorePolicy", "token_load"), "p1", "d1",
                        "final-score"),

                // ---- Step 5: final pair score, always within one roleset ----
                // rs1: prefill 3, decode 1; rs2: prefill 0, decode 1. maxP 3, maxD 1: rs1 = 1 + 1 = 2, rs2 = 0 + 1 → rs2.
                row("5 final score_lowest sum", rolesets(2),
                        new FixedLoad().prefilling("p1", 3).running("d1", 1).running("d2", 1), LEAST, "p2", "d2",
                        "final-score"),
                // rs1 has the best prefill (0 vs 2) and rs2 the best decode (1 vs 4): maxP 2, maxD 4:
                // rs1 = 0 + 4/4 = 1, rs2 = 2/2 + 1/4 = 1.25 → rs1's pair, never p1 with d2.
                row("5 best of each side in different rolesets_one roleset wins", rolesets(2),
                        new FixedLoad().prefilling("p2", 2).running("d1", 4).running("d2", 1), LEAST, "p1", "d1",
                        "final-score"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void step(Row row) {
        CachedPrefixes caches = new CachedPrefixes();
        long[] hashes = PROMPT;
        if (row.prefixHolder() != null) {
            Pod holder = row.pods().stream().filter(p -> p.name().equals(row.prefixHolder())).findFirst().orElseThrow();
            caches.holding(holder, hashes, row.heldBlocks());
        }
        ModelPods model = ModelPods.of("m", row.pods());
        for (long seed = 0; seed < 5; seed++) { // ties must not decide: the answer holds under every seed
            RoutingContext context = new RoutingContext(new RouteRequest("m", "r", row.promptTokens(), Strategy.PD, null,
                    Contexts.knobs(row.knobs()), hashes, null), model, row.load(), caches.lookup(hashes, model),
                    new SplittableRandom(seed), 1);
            RouteDecision decision = Contexts.router(row.bucketing()).route(context);
            assertThat(decision.prefill() == null ? null : decision.prefill().name()).as(decision.reason())
                    .isEqualTo(row.prefill());
            assertThat(decision.target() == null ? null : decision.target().name()).as(decision.reason())
                    .isEqualTo(row.target());
            assertThat(decision.step()).as(decision.reason()).isEqualTo(row.step());
        }
    }
}
