package io.pdgateway.core.session;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.cache.BlockHasher;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A model's decisions reuse their working arrays (DecisionBuffers): no decision may see what the one before left in
 * them. Here a prompt whose prefix one prefill pod holds is routed there, and then prompts without any cache blocks
 * must see no match on that pod: idle pods with equal scores share them at random.
 */
class WorkingArraysTest {
    @Test
    void promptsWithoutBlocks_afterOneWithACachedPrefix_seeNoMatch() {
        List<Pod> pods = List.of(pod("p1").prefill("rs1").build(), pod("d1").decode("rs1").build(),
                pod("p2").prefill("rs2").build(), pod("d2").decode("rs2").build());
        ClusterSnapshot snapshot = ClusterSnapshot.of(pods);
        RoutingSession session = RoutingSession.create(GatewaySettings.fromEnv(Map.of("ROUTING_ALGORITHM", "pd",
                "AIBRIX_PREFILL_SCORE_POLICY", "prefix_cache", "AIBRIX_DECODE_SCORE_POLICY", "least_request"))
                .routing(), () -> snapshot, pod -> PodMetrics.ABSENT, new ManualClock(), 1, warning -> { });
        Admission admission = session.admit("m", null, null);
        // Both rolesets serve once first, so neither decode pod is cold (a cold pod would steer the pick).
        Routed warmOne = session.route(admission, new PromptFeatures(400, new long[0], 420), "w1", null);
        Routed warmTwo = session.route(admission, new PromptFeatures(400, new long[0], 420), "w2", null);
        assertThat(warmTwo.decision().prefill()).isNotEqualTo(warmOne.decision().prefill());
        warmOne.lease().release();
        warmTwo.lease().release();
        int[] tokens = "x".repeat(400).chars().toArray();
        PromptFeatures cached = new PromptFeatures(tokens.length, BlockHasher.chain(BlockHasher.seed("m"), tokens,
                tokens.length, BlockHasher.DEFAULT_BLOCK_TOKENS), tokens.length + 20);
        Routed first = session.route(admission, cached, "r1", null);
        first.lease().release();
        Routed again = session.route(admission, cached, "r2", null);
        again.lease().release();
        String holder = first.decision().prefill().name();
        assertThat(again.decision().prefill().name()).as("the pod holding the prefix").isEqualTo(holder);

        Set<String> served = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            Routed routed = session.route(admission, new PromptFeatures(400, new long[0], 420), "n" + i, null);
            served.add(routed.decision().prefill().name());
            routed.lease().release();
        }
        assertThat(served).as("no match anywhere: both idle prefill pods serve").containsExactlyInAnyOrder("p1", "p2");
    }

    /**
     * A decision's scores are working arrays unless its admission asked to explain it (x-pd-debug): then its score
     * table is its own and still reads the same after later decisions overwrote the working arrays. Its reason holds
     * its own numbers either way.
     */
    @Test
    void explainedDecision_keepsItsScoreTable_throughLaterDecisions() {
        List<Pod> pods = List.of(pod("p1").prefill("rs1").build(), pod("d1").decode("rs1").build(),
                pod("p2").prefill("rs2").build(), pod("d2").decode("rs2").build());
        ClusterSnapshot snapshot = ClusterSnapshot.of(pods);
        RoutingSession session = RoutingSession.create(GatewaySettings.fromEnv(Map.of("ROUTING_ALGORITHM", "pd",
                "AIBRIX_PREFILL_SCORE_POLICY", "least_request", "AIBRIX_DECODE_SCORE_POLICY", "least_request"))
                .routing(), () -> snapshot, pod -> PodMetrics.ABSENT, new ManualClock(), 1, warning -> { });
        Admission plain = session.admit("m", null, null);
        Admission explained = plain.explained();
        PromptFeatures prompt = new PromptFeatures(400, new long[0], 420);
        Routed shown = session.route(explained, prompt, "shown", null); // one request in flight on its pair
        Map<String, Double> table = Map.copyOf(shown.decision().scores());
        String reason = shown.decision().reason();
        assertThat(table).containsKeys("rs1", "rs2", "p1", "p2", "d1", "d2");
        Routed unshown = session.route(plain, prompt, "unshown", null);
        assertThat(unshown.decision().scores()).as("nobody asked: no table").isEmpty();
        for (int i = 0; i < 3; i++) {
            session.route(plain, prompt, "later" + i, null); // leases kept: the loads, so the scores, change
        }
        assertThat(shown.decision().scores()).isEqualTo(table);
        assertThat(shown.decision().reason()).isEqualTo(reason);
        assertThat(unshown.decision().reason()).contains("final=");
    }
}
