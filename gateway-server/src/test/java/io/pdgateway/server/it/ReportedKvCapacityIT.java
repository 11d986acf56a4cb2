package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.sim.TimingProfile;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The gateway sizes each pod's prefix-cache view by the KV cache its engine reports on /metrics (vLLM's
 * {@code cache_config_info}: num_gpu_blocks × block_size; SGLang's {@code sglang:max_total_num_tokens}), not by the
 * kvCacheCapacityTokens setting, whose default (434,000 tokens) is left as it is here. The pod's KV cache holds 8,000
 * tokens (500 blocks); six distinct prompts of about 156 blocks each are routed to it. Seen on /metrics: the view holds
 * at most 500 blocks, as the engine does. Read by the setting, it would hold all of them (about 940).
 */
class ReportedKvCapacityIT {
    private static final int KV_CACHE_TOKENS = 8_000;
    private static final int KV_CACHE_BLOCKS = KV_CACHE_TOKENS / 16;
    private static final int PROMPTS = 6;
    @AutoClose
    private TestCluster cluster;

    @Test
    void aVllmPodsViewHoldsWhatItsCacheConfigInfoSays() throws Exception {
        cluster = smallCaches(new TestCluster());
        checkViewHoldsTheReportedCapacity();
    }

    @Test
    void anSglangPodsViewHoldsWhatItsMaxTotalNumTokensSays() throws Exception {
        cluster = smallCaches(new TestCluster("sglang"));
        checkViewHoldsTheReportedCapacity();
    }

    private static TestCluster smallCaches(TestCluster cluster) throws Exception {
        return cluster.withSimOptions(b -> b.timing(TimingProfile.llama3_8b_h100().withKvCapacityTokens(KV_CACHE_TOKENS)))
                .standard("standard").startGateway(Map.of("ROUTING_ALGORITHM", "prefix-cache"));
    }

    private void checkViewHoldsTheReportedCapacity() throws Exception {
        for (int n = 1; n <= PROMPTS; n++) {
            assertThat(cluster.post("/v1/chat/completions", TestCluster.chat(prompt(n), 2, false)).statusCode())
                    .isEqualTo(200);
        }
        // The view follows the scrape and the gauge the upkeep tick (once a second): what a prompt holds beyond the
        // pod's 500 blocks is evicted by then. At least the last prompt's blocks stay.
        await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> assertThat(cluster.prefixCacheModelBlocks()).isBetween(
                (long) KV_CACHE_BLOCKS / 4, (long) KV_CACHE_BLOCKS));
    }

    /** A prompt of about 156 blocks (2,500 tokens), with a first word of its own so it shares no block with others. */
    private static String prompt(int n) {
        return "q" + n + " " + "word ".repeat(2_000).trim();
    }
}
