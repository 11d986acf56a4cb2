package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.sim.FaultConfig;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * pd_prefix_cache_forgone_hit_tokens_total on /metrics. Two 1P1D rolesets, prefix_cache prefill scoring: a prompt's
 * first request computes it on one prefill pod. Sent again, it goes back there, which now answers 502: the gateway
 * retries the prefill on the other roleset's pod, which recomputes what the first held. That pod counts the tokens it
 * gave up (the holder could not take the request); the first, which nothing was held before, counts none.
 */
class ForgoneCacheHitsIT {
    private static final String CHAT = "/v1/chat/completions";
    private static final String FORGONE = "pd_prefix_cache_forgone_hit_tokens_total";
    private static final String ROUTED = "pd_prefix_cache_routed_prompt_tokens_total";
    private static final String PROMPT = "a long system prompt that every turn of this conversation repeats, ".repeat(8);

    @AutoClose
    private TestCluster cluster;

    @Test
    void aPromptRecomputedWhereAnotherPodHeldIt_countsOnThePodThatRecomputedIt() throws Exception {
        cluster = new TestCluster().prefill("prefill-x", "group-x").decode("decode-x", "group-x")
                .prefill("prefill-y", "group-y").decode("decode-y", "group-y");
        cluster.startGateway(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_PREFILL_SCORE_POLICY", "prefix_cache"));
        String holder = prefillOf(PROMPT);
        String other = holder.equals("prefill-x") ? "prefill-y" : "prefill-x";
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(value(cluster.get("/metrics").body(), FORGONE, holder)).as("nothing held before").isZero());

        cluster.simPod(holder).setFaults(FaultConfig.none().withErrors(1.0, 502));
        assertThat(prefillOf(PROMPT)).as("retried away from the holder").isEqualTo(other);

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            String metrics = cluster.get("/metrics").body();
            assertThat(value(metrics, FORGONE, holder)).isZero();
            assertThat(value(metrics, FORGONE, other)).as("the prompt the holder held, recomputed once")
                    .isPositive().isLessThanOrEqualTo(value(metrics, ROUTED, other));
        });
    }

    /** Sends the prompt; the prefill pod that computed it. */
    private String prefillOf(String prompt) throws Exception {
        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat(prompt, 2, false));
        assertThat(response.statusCode()).isEqualTo(200);
        return response.headers().firstValue("prefill-target-pod").orElseThrow();
    }

    private static double value(String metrics, String name, String pod) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name + "{namespace=\"default\",pod_name=\"" + pod + "\"}")
                + " ([0-9.eE+-]+)$").matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }
}
