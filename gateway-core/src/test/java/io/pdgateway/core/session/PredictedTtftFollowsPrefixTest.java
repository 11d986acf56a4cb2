package io.pdgateway.core.session;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.cache.BlockHasher;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.ScrapedMetrics;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * predicted_ttft through the session as the server runs it, its metrics a scrape store: the decision then reads its
 * prefill candidates by slot (their queues, and their prefix matches by computing position), not pod by pod. A
 * conversation's next turn must go to the prefill pod that computed its last one, whose cache holds the history,
 * for every conversation, wherever its pod sits among the model's pods.
 */
class PredictedTtftFollowsPrefixTest {
    private static final int ROLESETS = 6;
    private static final int CONVERSATIONS = 12;

    /** A store that has scraped nothing yet: every pod reads as never scraped, by slot as by id. */
    private static final class NothingScraped implements ScrapedMetrics {
        @Override
        public long entriesVersion() {
            return 0;
        }

        @Override
        public Entry entry(String podId) {
            return null;
        }

        @Override
        public long nowNanos() {
            return 0;
        }

        @Override
        public long staleAfterNanos() {
            return Long.MAX_VALUE;
        }
    }

    @Test
    void eachConversationsNextTurn_goesToThePodThatComputedItsLast() {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < ROLESETS; i++) {
            pods.add(pod("d" + i).decode("rs" + i).build()); // decode pods first: slots and positions differ
            pods.add(pod("p" + i).prefill("rs" + i).build());
        }
        ClusterSnapshot snapshot = ClusterSnapshot.of(pods);
        ManualClock clock = new ManualClock();
        RoutingSession session = RoutingSession.create(GatewaySettings.fromEnv(Map.of("ROUTING_ALGORITHM", "pd",
                "AIBRIX_PREFILL_SCORE_POLICY", "predicted_ttft")).routing(), () -> snapshot, new NothingScraped(),
                clock, 3, warning -> { });
        Admission admission = session.admit("m", null, null);
        List<String> computedBy = new ArrayList<>();
        for (int c = 0; c < CONVERSATIONS; c++) {
            computedBy.add(turn(session, admission, clock, c, 1));
        }
        assertThat(new HashSet<>(computedBy)).as("prefill pods of the first turns").hasSizeGreaterThan(2);
        for (int c = 0; c < CONVERSATIONS; c++) {
            assertThat(turn(session, admission, clock, c, 2)).as("conversation %d's second turn", c)
                    .isEqualTo(computedBy.get(c));
        }
    }

    /** Routes turn {@code turn} of conversation {@code c}, answers it at once; the prefill pod's name. */
    private static String turn(RoutingSession session, Admission admission, ManualClock clock, int c, int turn) {
        Routed routed = session.route(admission, features(c, turn), "c" + c + "t" + turn, null);
        clock.advanceSeconds(0.05);
        routed.lease().prefillAnswered();
        routed.lease().release();
        clock.advanceSeconds(0.05);
        return routed.decision().prefill().name();
    }

    /** Conversation c's history so far: 1,600 characters a turn, each turn extending the last. */
    private static PromptFeatures features(int c, int turn) {
        int[] tokens = ("conversation " + c + ": " + "history ".repeat(200 * turn)).chars().toArray();
        return new PromptFeatures(tokens.length, BlockHasher.chain(BlockHasher.seed("m"), tokens, tokens.length,
                BlockHasher.DEFAULT_BLOCK_TOKENS), tokens.length + 20);
    }
}
