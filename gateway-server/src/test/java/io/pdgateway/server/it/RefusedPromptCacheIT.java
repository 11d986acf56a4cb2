package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.sim.SimRole;
import io.pdgateway.sim.TimingProfile;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * A prompt the computing pod refuses (here one over the engine's context length, answered 400 as vLLM does) leaves no
 * blocks in the gateway's cache model: the engine stored none of it. Seen on /metrics: after a refused prompt of some
 * 8,700 blocks, the next ordinary prompt adds to {@code pd_prefix_cache_model_blocks} what an ordinary prompt added
 * before it. Before the fix the refused prompt stayed in the model as cached on the pod (and evicted what the pod does
 * hold). The pods' KV caches hold 8,000 tokens (500 blocks), so the refused prompt, had it counted against the pod's
 * capacity before the pod took it, would have pushed the ordinary prompts out of the view: a client repeating one
 * emptied it. On the PD path (the prefill pod refuses) and on a standard pod (prefix-cache routing).
 */
class RefusedPromptCacheIT {
    /** About 140,000 tokens by the engine's count: over its 131,072-token context. */
    private static final String TOO_LONG = "word ".repeat(112_000).trim();
    private static final int KV_CACHE_TOKENS = 8_000;
    @AutoClose
    private TestCluster cluster;

    @Test
    void aPromptThePrefillPodRefusedIsNotCached() throws Exception {
        cluster = smallCaches().prefill("prefill", "rs").decode("decode", "rs").startGateway(Map.of(
                "ROUTING_ALGORITHM", "pd", "AIBRIX_PREFILL_SCORE_POLICY", "prefix_cache",
                "PD_GATEWAY_KV_CACHE_CAPACITY_TOKENS", Integer.toString(KV_CACHE_TOKENS)));
        checkRefusedPromptAddsNothing();
    }

    @Test
    void aPromptTheStandardPodRefusedIsNotCached() throws Exception {
        cluster = smallCaches().standard("standard").startGateway(Map.of("ROUTING_ALGORITHM", "prefix-cache",
                "PD_GATEWAY_KV_CACHE_CAPACITY_TOKENS", Integer.toString(KV_CACHE_TOKENS)));
        checkRefusedPromptAddsNothing();
    }

    /** Pods reporting a KV cache of {@link #KV_CACHE_TOKENS} (the gateway is told the same before its first scrape). */
    private static TestCluster smallCaches() throws Exception {
        return new TestCluster().withSimOptions(b -> b.timing(TimingProfile.llama3_8b_h100()
                .withKvCapacityTokens(KV_CACHE_TOKENS)));
    }

    private void checkRefusedPromptAddsNothing() throws Exception {
        long before = blocksAfter(ordinary(1), 0);
        long ordinaryBlocks = blocksAfter(ordinary(2), before) - before;

        HttpResponse<String> refused = cluster.post("/v1/chat/completions", TestCluster.chat(TOO_LONG, 2, false));
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(refused.body()).contains("maximum context length");

        long expected = before + 2 * ordinaryBlocks;
        assertThat(send(ordinary(3)).statusCode()).isEqualTo(200);
        // The gauge follows with the upkeep tick (once a second); with the refused prompt cached it never reads this.
        await().atMost(5, TimeUnit.SECONDS)
                .untilAsserted(() -> assertThat(cluster.prefixCacheModelBlocks()).isEqualTo(expected));
    }

    /** A prompt of about 150 blocks, with a first word of its own so it shares no block with the others. */
    private static String ordinary(int n) {
        return "q" + n + " " + "word ".repeat(2_000).trim();
    }

    /** Sends the prompt and waits until the gauge moves from {@code previous}; returns what it then reads. */
    private long blocksAfter(String prompt, long previous) throws Exception {
        assertThat(send(prompt).statusCode()).isEqualTo(200);
        await().atMost(5, TimeUnit.SECONDS).until(() -> cluster.prefixCacheModelBlocks() != previous);
        return cluster.prefixCacheModelBlocks();
    }

    private HttpResponse<String> send(String prompt) throws Exception {
        return cluster.post("/v1/chat/completions", TestCluster.chat(prompt, 2, false));
    }
}
