package io.pdgateway.bench.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pdgateway.core.routing.DecisionKind;
import io.pdgateway.core.routing.Verdict;
import io.pdgateway.routingsim.cluster.ClusterShapeReader;
import io.pdgateway.routingsim.report.PolicyReport;
import io.pdgateway.routingsim.run.RequestRecord;
import io.pdgateway.routingsim.workload.BlockHashes;
import io.pdgateway.routingsim.workload.SimRequest;
import io.pdgateway.server.routing.PromptTokenizer;
import io.pdgateway.sim.cluster.LoopbackClusterShape;
import io.pdgateway.workload.run.RequestResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pieces of the loopback validation that can be checked without the 90-second run: prompts are exactly the
 * engine tokens the simulator assumes and about as many cl100k tokens (what bucketing counts) and share exactly the
 * blocks the simulator has them share, cluster files map to the same loopback pods, and the comparison gates on the
 * stated tolerances.
 */
class ValidationTest {

    @Test
    void prompt_isExactlyNEngineTokens_andAboutNCl100kTokens() {
        for (int tokens : new int[] {16, 500, 2048, 6000}) {
            String text = ValidationPrompts.text(request(7, tokens, BlockHashes.unique(7, tokens, 16)), 16);
            assertThat(text).hasSize(4 * tokens); // engine-sim: four characters per token
            assertThat(PromptTokenizer.count(text)).isBetween((int) (tokens * 0.98), (int) (tokens * 1.02) + 2);
        }
    }

    @Test
    void prompts_shareExactlyTheBlocksTheSimulatorSharesWith() {
        // Two 512-token trace blocks in common, then each its own: 64 shared 16-token blocks, 256 characters each.
        long[] a = BlockHashes.of(new long[] {11, 12, 13}, new int[] {512, 512, 512}, 1500, 16);
        long[] b = BlockHashes.of(new long[] {11, 12, 14}, new int[] {512, 512, 512}, 1500, 16);
        String first = ValidationPrompts.text(request(1, 1500, a), 16);
        String second = ValidationPrompts.text(request(2, 1500, b), 16);
        int shared = 0;
        while (shared < first.length() && first.charAt(shared) == second.charAt(shared)) {
            shared++;
        }
        assertThat(shared / 64).isEqualTo(64); // engine-sim's 16-token blocks are 64 characters
        String unrelated = ValidationPrompts.text(request(3, 1500, BlockHashes.unique(3, 1500, 16)), 16);
        assertThat(unrelated.substring(0, 64)).isNotEqualTo(first.substring(0, 64));
        assertThat(ValidationPrompts.unshared(64, 0).substring(0, 64)).isNotEqualTo(first.substring(0, 64));
    }

    @Test
    void clusterFiles_mapToLoopbackPods_withTheSimulatorsAnnotations() throws Exception {
        LoopbackClusterShape pd6 = LoopbackShapes.of(ClusterShapeReader.parse(
                "model: my-model\ntiming: llama3-8b-h100\nrolesets:\n  - name: pd\n    replicas: 6\n", "pd6"), 4);
        assertThat(pd6.pods()).isEqualTo(12);
        assertThat(pd6.standardPods()).isZero();
        assertThat(pd6.pdConfig()).contains("\"routingStrategy\":\"pd\"");
        LoopbackClusterShape demo = LoopbackShapes.of(ValidateCommand.demoShape(), 4);
        assertThat(demo.rolesets()).isEqualTo(2);
        assertThat(demo.standardPods()).isEqualTo(1);
        assertThat(demo.pdConfig()).contains("\"promptLenBucketMaxLength\":2048");
        assertThat(demo.standardConfig()).contains("\"combined\":true").contains("\"promptLenBucketMinLength\":2048");
        assertThatThrownBy(() -> LoopbackShapes.of(ClusterShapeReader.parse("model: m\ntiming: llama3-8b-h100\n"
                + "rolesets:\n  - name: a\n    replicas: 1\n  - name: b\n    replicas: 1\n", "two"), 4))
                .hasMessageContaining("at most one roleset group");
    }

    @Test
    void comparison_withinTolerance_agrees_outside_doesNot() {
        List<RequestRecord> simulated = new ArrayList<>();
        List<RequestResult> close = new ArrayList<>();
        List<RequestResult> far = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            double ttft = 50 + i;
            simulated.add(new RequestRecord(i, 0, 100, 11, DecisionKind.PD_PAIR, Verdict.PD_PAIR_SELECTED,
                    "final-score", "p", "d", Math.round(ttft * 1e6), Math.round((ttft + 80) * 1e6), 0, null));
            close.add(new RequestResult(0, 0, 200, "pd p -> d", false, -1, ttft * 1.05, 8.4, -1, 0, 0, null));
            far.add(new RequestResult(0, 0, 200, "pd p -> d", false, -1, ttft * 1.5, 8.0, -1, 0, 0, null));
        }
        Comparison.Tolerances tolerances = new Comparison.Tolerances(0.10, 0.20, 0.05);
        Comparison ok = Comparison.of(simulated, close, 1);
        assertThat(ok.agrees(tolerances)).isTrue();
        assertThat(ok.table(tolerances)).contains("TTFT all p50").contains("ok");
        Comparison off = Comparison.of(simulated, far, 1);
        assertThat(off.agrees(tolerances)).isFalse();
        assertThat(off.table(tolerances)).contains("OUTSIDE");

        assertThat(ok.withPrefixHits(0.50, 0.53).agrees(tolerances)).isTrue();
        Comparison hitsApart = ok.withPrefixHits(0.50, 0.60);
        assertThat(hitsApart.agrees(tolerances)).isFalse();
        assertThat(hitsApart.table(tolerances)).contains("prefix hit %").contains("+10.0 pt").contains("OUTSIDE");

        // Reported, not gated: one side's prefill pods loaded 3:1, the other's evenly.
        Comparison spread = ok.withPrefillSpread(new long[] {300, 100}, new long[] {200, 200});
        assertThat(spread.agrees(tolerances)).isTrue();
        assertThat(spread.table(tolerances)).containsPattern("prefill max/mean +1\\.50 +1\\.00");
        assertThat(PolicyReport.maxOverMean(new long[] {5})).isNaN();
        assertThat(PolicyReport.maxOverMean(new long[] {0, 0})).isNaN();
    }

    @Test
    void requestPairs_oneRowARequest_bothSidesInModelledMillis() {
        RequestRecord pd = new RequestRecord(0, 2_000_000, 100, 11, DecisionKind.PD_PAIR, Verdict.PD_PAIR_SELECTED,
                "final-score", "p1", "d1", 52_000_000, 132_000_000, 32, null);
        RequestRecord standard = new RequestRecord(1, 3_000_000, 200, 11, DecisionKind.SINGLE,
                Verdict.STANDARD_FALLBACK, "fallback", null, "s1", 60_000_000, 160_000_000, 0, null);
        List<RequestResult> loopback = List.of(
                new RequestResult(0, 0, 200, "pd p1 -> d2", false, -1, 200, 32, -1, 11, 100, null),
                RequestResult.failure(0, 0, 200, "timeout: no first token, \"late\""));
        String[] lines = RequestPairs.csv(List.of(pd, standard), loopback, 4).split("\n");
        assertThat(lines).hasSize(3);
        assertThat(lines[0]).isEqualTo(RequestPairs.HEADER);
        assertThat(lines[1]).isEqualTo("0,2.0,100,11,pd p1 -> d1,50.0,8.00,32,pd p1 -> d2,50.0,8.00,11,,false");
        assertThat(lines[2]).startsWith("1,3.0,200,11,standard s1,57.0,10.00,0,");
        String[] fields = lines[2].split(",", -1);
        assertThat(fields).hasSize(14);
        assertThat(fields[12]).isEqualTo("timeout: no first token   late ");
        assertThat(fields[13]).isEqualTo("false");
    }

    @Test
    void samePods_matchesTheTwoSidesNamesByPlace() {
        List<RequestRecord> simulated = List.of(
                record(0, "pd6-3-prefill-0", "pd6-3-decode-0"),
                record(1, "pd6-3-prefill-0", "pd6-3-decode-0"),
                record(2, null, "std-1"),
                record(3, "group-0-prefill-1", "group-0-decode-0"));
        List<RequestResult> loopback = List.of(
                routed("pd prefill-3 -> decode-3"),
                routed("pd prefill-2 -> decode-2"),
                routed("standard standard-1"),
                routed("pd prefill-0-1 -> decode-0-0"));
        assertThat(RequestPairs.samePods(simulated, loopback)).isEqualTo(3);
        assertThat(RequestPairs.csv(simulated, loopback, 1).split("\n")[2]).endsWith(",false");
    }

    private static RequestRecord record(int index, String prefill, String target) {
        return new RequestRecord(index, 0, 100, 11, prefill == null ? DecisionKind.SINGLE : DecisionKind.PD_PAIR,
                prefill == null ? Verdict.STANDARD_FALLBACK : Verdict.PD_PAIR_SELECTED, "final-score", prefill, target,
                10_000_000, 90_000_000, 0, null);
    }

    private static RequestResult routed(String route) {
        return new RequestResult(0, 0, 200, route, false, -1, 10, 8, -1, 11, 100, null);
    }

    private static SimRequest request(int index, int tokens, long[] hashes) {
        return new SimRequest(index, 0, tokens, 8, hashes, null);
    }
}
