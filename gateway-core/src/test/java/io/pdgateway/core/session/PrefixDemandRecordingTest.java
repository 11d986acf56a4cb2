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
import org.junit.jupiter.api.Test;

/**
 * Prefix demand is predicted_ttft's alone: a model routed only by other policies records none (a table write per prompt
 * block per decision, for no reader); from the model's first predicted_ttft request on, every routed prompt counts,
 * whichever policy routed it.
 */
class PrefixDemandRecordingTest {
    private static final String CONFIG = "{\"profiles\":{\"default\":{\"routingStrategy\":\"pd\"},"
            + "\"predictive\":{\"routingStrategy\":\"pd\",\"routingConfig\":{\"prefillScorePolicy\":\"predicted_ttft\"}}}}";

    @Test
    void recordedFromTheModelsFirstPredictedTtftRequestOn() {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            pods.add(pod("p" + i).prefill("rs" + i).config(CONFIG).build());
            pods.add(pod("d" + i).decode("rs" + i).config(CONFIG).build());
        }
        ClusterSnapshot snapshot = ClusterSnapshot.of(pods);
        ManualClock clock = new ManualClock();
        RoutingSession session = RoutingSession.create(GatewaySettings.fromEnv(Map.of("ROUTING_ALGORITHM", "pd",
                "AIBRIX_PREFILL_SCORE_POLICY", "hybrid_cache_load")).routing(), () -> snapshot, pod -> PodMetrics.ABSENT,
                clock, 3, warning -> { });
        PromptFeatures shared = features("the same system prompt ".repeat(20));
        long[] hashes = shared.prefixHashes();

        for (int r = 0; r < 4; r++) {
            session.route(session.admit("m", null, null), shared, "hybrid-" + r, null).lease().release();
        }
        assertThat(session.prefixDemand("m", hashes, hashes.length)).as("hybrid_cache_load only: nothing recorded").isZero();

        session.route(session.admit("m", null, "predictive"), shared, "predicted", null).lease().release();
        session.route(session.admit("m", null, null), shared, "hybrid-after", null).lease().release();
        assertThat(session.prefixDemand("m", hashes, hashes.length))
                .as("the predicted_ttft request and the hybrid one after it").isEqualTo(2.0);
    }

    private static PromptFeatures features(String text) {
        int[] tokens = text.chars().toArray();
        return new PromptFeatures(tokens.length, BlockHasher.chain(BlockHasher.seed("m"), tokens, tokens.length,
                BlockHasher.DEFAULT_BLOCK_TOKENS), tokens.length + 20);
    }
}
