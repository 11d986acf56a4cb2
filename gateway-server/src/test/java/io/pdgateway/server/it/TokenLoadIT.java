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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * token_load end to end: one roleset with two prefill pods and one decode pod. While a 30,000-token prompt's KV sits
 * on one prefill pod, token_load sends every short request to the other; least_request, which counts requests,
 * does not. Afterwards every token gauge reads zero.
 */
class TokenLoadIT {
    private static final Pattern ACTIVE = Pattern.compile("pd_token_load_(active|kv|decode)_tokens\\{[^}]*} ([0-9.]+)");
    @AutoClose
    private TestCluster cluster;
    private RawStream longRequest;

    @AfterEach
    void tearDown() throws Exception {
        if (longRequest != null) {
            longRequest.close();
        }
    }

    private List<String> shortRequestsAfterALongOne(String policy) throws Exception {
        cluster = new TestCluster().pod("prefill-a", SimRole.PREFILL, "rs", Map.of(), null)
                .pod("prefill-b", SimRole.PREFILL, "rs", Map.of(), null).decode("decode", "rs")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_PREFILL_SCORE_POLICY", policy,
                        "AIBRIX_DECODE_SCORE_POLICY", "least_request"));
        // The long request: 30,000 words of prompt and a long generation, so its charge stays while the rest run.
        longRequest = new RawStream(cluster.gateway().port(), "/v1/chat/completions",
                TestCluster.chat("word ".repeat(30_000).trim(), 50_000, false));
        await().atMost(10, TimeUnit.SECONDS).until(() -> cluster.simPod("decode").openStreams() == 1);
        boolean onA = !cluster.inferenceRequests("prefill-a").isEmpty();
        String holder = onA ? "prefill-a" : "prefill-b";
        List<String> served = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> response = cluster.post("/v1/chat/completions", TestCluster.chat("short " + i, 2, false));
            assertThat(response.statusCode()).isEqualTo(200);
            served.add(response.headers().firstValue("prefill-target-pod").orElseThrow().equals(holder) ? "holder" : "other");
        }
        return served;
    }

    @Test
    void tokenLoad_shortRequestsAvoidTheLongPromptsPod_gaugesBackToZero() throws Exception {
        List<String> served = shortRequestsAfterALongOne("token_load");
        assertThat(served).containsOnly("other");
        // The gauge series appear with the next upkeep tick (once a second).
        await().atMost(3, TimeUnit.SECONDS).untilAsserted(() -> assertThat(cluster.get("/metrics").body())
                .containsPattern("pd_token_load_kv_tokens\\{namespace=\"default\",pod_name=\"prefill-[ab]\"} [1-9]"));
        longRequest.close();
        longRequest = null;
        await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> {
            String metrics = cluster.get("/metrics").body();
            Matcher m = ACTIVE.matcher(metrics);
            int series = 0;
            while (m.find()) {
                series++;
                assertThat(Double.parseDouble(m.group(2))).as(m.group()).isZero();
            }
            assertThat(series).as("gauges per pod present").isGreaterThanOrEqualTo(3);
        });
    }

    @Test
    void leastRequest_countsRequests_someShortOnesLandOnTheBusyPod() throws Exception {
        List<String> served = shortRequestsAfterALongOne("least_request");
        assertThat(served).contains("holder");
    }
}
