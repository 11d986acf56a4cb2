package io.pdgateway.core.session;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.cache.BlockHasher;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The cache hits routing gives up: a request computed on a pod that holds less of its prompt than another pod counts
 * the difference on the pod that computed it (pd_prefix_cache_forgone_hit_tokens_total). Under the prefix-cache
 * strategy a repeated prompt follows the pod that holds it and gives up nothing; when that pod cannot take it (a
 * retry that excludes it), the pod that recomputes it counts what the holder held, once.
 */
class ForgoneCacheHitsTest {
    private static final int PROMPT_TOKENS = 1_000;
    /** The blocks of the prompt a pod holds once it computed it: its whole 16-token blocks. */
    private static final long HELD_TOKENS = PROMPT_TOKENS / BlockHasher.DEFAULT_BLOCK_TOKENS
            * BlockHasher.DEFAULT_BLOCK_TOKENS;

    private final List<Pod> pods = List.of(pod("a").build(), pod("b").build());
    private final RoutingSession session = session("prefix-cache");

    @Test
    void aRepeatedPrompt_followsItsHolder_andGivesUpNothing() {
        String holder = route(Set.of(), 0);
        for (int i = 1; i < 8; i++) {
            assertThat(route(Set.of(), i)).isEqualTo(holder);
        }
        for (Pod pod : pods) {
            assertThat(session.caches().forgoneCachedTokens(pod.id())).as(pod.name()).isZero();
        }
    }

    @Test
    void whenTheHolderCannotTakeIt_theOtherPodCountsWhatTheHolderHeld_once() {
        String holder = route(Set.of(), 0);
        Pod held = named(holder);
        String other = route(Set.of(held.id()), 1); // as a retry that excludes the pod that failed
        assertThat(other).isNotEqualTo(holder);
        route(Set.of(held.id()), 2); // the other pod holds the prompt now too

        assertThat(session.caches().forgoneCachedTokens(held.id())).as("nothing was held before the holder").isZero();
        assertThat(session.caches().forgoneCachedTokens(named(other).id())).isEqualTo(HELD_TOKENS);
    }

    private RoutingSession session(String strategy) {
        ClusterSnapshot snapshot = ClusterSnapshot.of(pods);
        return RoutingSession.create(GatewaySettings.fromEnv(Map.of("ROUTING_ALGORITHM", strategy)).routing(),
                () -> snapshot, pod -> PodMetrics.ABSENT, new ManualClock(), 7, warning -> { });
    }

    /** Routes the one prompt past the excluded pods and answers it at once, so the chosen pod holds its blocks. */
    private String route(Set<String> excluded, int i) {
        Admission admission = session.admit("m", null, null);
        Routed routed = session.route(admission, prompt(), "r" + i, null, excluded);
        routed.lease().release();
        return routed.decision().target().name();
    }

    private static PromptFeatures prompt() {
        int[] tokens = "x".repeat(PROMPT_TOKENS).chars().toArray();
        return new PromptFeatures(tokens.length, BlockHasher.chain(BlockHasher.seed("m"), tokens, tokens.length,
                BlockHasher.DEFAULT_BLOCK_TOKENS), tokens.length);
    }

    private Pod named(String name) {
        return pods.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }
}
