package io.pdgateway.core.session;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.cache.BlockHasher;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * predicted_ttft over idle pods that differ by less than its models can tell: eight 1P1D rolesets whose prefill pods
 * take 30 ms a leg (pod i 0.2 % × i slower) with ±5 % jitter, each request answered before the next arrives. The
 * fitted models then differ by about their own error, and taking the lowest prediction sent two thirds of them to
 * whichever pod's fit came out quickest; drawn among the predictions within the measured error, every pod gets a fair
 * share. Runs through the session, so the error it reads is the one the pods' models measured.
 */
class PredictedTtftSpreadTest {
    private static final int PODS = 8;
    private static final int REQUESTS = 800;

    @Test
    void idlePodsWithinTheModelsError_shareTheRequests() {
        ManualClock clock = new ManualClock();
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < PODS; i++) {
            pods.add(pod("p" + i).prefill("rs" + i).build());
            pods.add(pod("d" + i).decode("rs" + i).build());
        }
        ClusterSnapshot snapshot = ClusterSnapshot.of(pods);
        RoutingSession session = RoutingSession.create(GatewaySettings.fromEnv(Map.of("ROUTING_ALGORITHM", "pd",
                "AIBRIX_PREFILL_SCORE_POLICY", "predicted_ttft")).routing(), () -> snapshot, pod -> PodMetrics.ABSENT,
                clock, 1, warning -> { });
        Admission admission = session.admit("m", null, null);
        SplittableRandom jitter = new SplittableRandom(7);
        Map<String, Integer> legs = new TreeMap<>();
        for (int r = 0; r < REQUESTS; r++) {
            Routed routed = session.route(admission, features(r), "r" + r, null);
            String prefill = routed.decision().prefill().name();
            legs.merge(prefill, 1, Integer::sum);
            int index = Integer.parseInt(prefill.substring(1));
            clock.advanceSeconds(0.030 * (1 + 0.002 * index) * (1 + 0.1 * (jitter.nextDouble() - 0.5)));
            routed.lease().prefillAnswered();
            routed.lease().release();
            clock.advanceSeconds(0.1);
        }
        assertThat(legs).as("legs by prefill pod").hasSize(PODS);
        assertThat(legs.values()).as("legs by prefill pod: %s", legs).allSatisfy(
                count -> assertThat(count).isGreaterThan(REQUESTS / PODS / 2));
    }

    /** 200 tokens that share no block with another request's. */
    private static PromptFeatures features(int request) {
        int[] tokens = ("q" + request + "x".repeat(200)).chars().toArray();
        return new PromptFeatures(tokens.length, BlockHasher.chain(BlockHasher.seed("m"), tokens, tokens.length,
                BlockHasher.DEFAULT_BLOCK_TOKENS), tokens.length + 20);
    }
}
