package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.sim.SimRole;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * predicted_ttft end to end: of two idle prefill pods one runs 200 times slower. Both start from the same default
 * prefill-time model, so only what the gateway measures on the answered prefill legs can tell them apart; once it has,
 * every request goes to the fast pod, and /metrics shows each pod's model error and the cache model's size. The first
 * leg of a fresh gateway is slow whichever pod it meets (connection set-up, a cold JVM), so the fast pod may look slow
 * at first: its model fading while it is unused (here after 300 ms) is what gets it tried again.
 */
class PredictedTtftIT {
    private static final Pattern MODEL_ERROR =
            Pattern.compile("pd_prefill_time_model_error\\{namespace=\"default\",pod_name=\"prefill-fast\"} ([0-9.eE+-]+)");
    @AutoClose
    private TestCluster cluster;

    @Test
    void learnsWhichPrefillPodIsSlow_andSendsEveryLaterRequestToTheOther() throws Exception {
        cluster = new TestCluster().pod("prefill-fast", SimRole.PREFILL, "rs", Map.of(), null);
        // 200× the suite's time scale: a 4,000-token prefill takes about half a second instead of a few milliseconds.
        cluster.withSimOptions(b -> b.timeScale(TestCluster.TIME_SCALE * 200))
                .pod("prefill-slow", SimRole.PREFILL, "rs", Map.of(), null);
        cluster.withSimOptions(b -> b).decode("decode", "rs").startGateway(Map.of("ROUTING_ALGORITHM", "pd",
                "AIBRIX_PREFILL_SCORE_POLICY", "predicted_ttft", "AIBRIX_DECODE_SCORE_POLICY", "least_request",
                "PD_GATEWAY_PREFILL_MODEL_FADE_MS", "300"));

        List<String> served = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            // A different first word each time, so no prompt finds another's blocks cached.
            String prompt = "q" + i + " " + "word ".repeat(4_000).trim();
            HttpResponse<String> response = cluster.post("/v1/chat/completions", TestCluster.chat(prompt, 2, false));
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            served.add(response.headers().firstValue("prefill-target-pod").orElseThrow());
        }

        assertThat(served.subList(20, 30)).as("prefill pods of the last ten requests; all: %s", served)
                .containsOnly("prefill-fast");
        // The gauges follow with the next upkeep tick (once a second).
        await().atMost(5, TimeUnit.SECONDS).untilAsserted(() -> {
            String metrics = cluster.get("/metrics").body();
            Matcher error = MODEL_ERROR.matcher(metrics);
            assertThat(error.find()).as("the fast pod's model error series").isTrue();
            assertThat(Double.parseDouble(error.group(1))).isBetween(0.0, 1e9);
            assertThat(TestCluster.unlabelled(metrics, "pd_prefix_cache_model_blocks")).as("pd_prefix_cache_model_blocks")
                    .isPositive();
        });
    }
}
