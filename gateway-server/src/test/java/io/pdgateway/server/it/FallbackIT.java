package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.sim.SimRole;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Standard pods: the fallback when no complete bucket-matched pair exists, and the only targets of non-PD strategies. */
class FallbackIT {
    @AutoClose
    private TestCluster cluster;

    @Test
    void incompleteRoleset_bucketingOn_standardPodServes() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").standard("standard-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_PROMPT_LENGTH_BUCKETING", "true"));
        HttpResponse<String> response = cluster.post("/v1/chat/completions", TestCluster.chat("hello", 3, true));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("target-pod")).contains("standard-0");
        assertThat(response.headers().firstValue("prefill-target-pod")).isEmpty();
        assertThat(response.headers().firstValue("routing-strategy")).contains("pd");
        assertThat(cluster.inferenceRequests("prefill-0")).isEmpty();
        assertThat(cluster.inferenceRequests("standard-0").get(0).body())
                .isEqualTo(TestCluster.chat("hello", 3, true));
    }

    @Test
    void promptLongerThanPdBucket_standardPod_shortPromptStaysPd() throws Exception {
        String pdBucket = "{\"profiles\":{\"default\":{\"routingStrategy\":\"pd\",\"routingConfig\":"
                + "{\"promptLenBucketMinLength\":0,\"promptLenBucketMaxLength\":20}}}}";
        String standard = "{\"profiles\":{\"default\":{\"routingStrategy\":\"pd\",\"routingConfig\":"
                + "{\"combined\":true,\"promptLenBucketMinLength\":20}}}}";
        cluster = new TestCluster()
                .pod("prefill-0", SimRole.PREFILL, "group-0", Map.of(), pdBucket)
                .pod("decode-0", SimRole.DECODE, "group-0", Map.of(), pdBucket)
                .pod("standard-0", SimRole.COMBINED, null, Map.of(), standard)
                .startGateway(Map.of("AIBRIX_PROMPT_LENGTH_BUCKETING", "true"));
        HttpResponse<String> shortPrompt = cluster.post("/v1/chat/completions", TestCluster.chat("hi there", 2, false));
        assertThat(shortPrompt.headers().firstValue("prefill-target-pod")).contains("prefill-0");
        assertThat(shortPrompt.headers().firstValue("routing-strategy")).as("strategy from the profile").contains("pd");
        HttpResponse<String> longPrompt = cluster.post("/v1/chat/completions",
                TestCluster.chat("the river ".repeat(30).trim(), 2, false));
        assertThat(longPrompt.statusCode()).isEqualTo(200);
        assertThat(longPrompt.headers().firstValue("target-pod")).contains("standard-0");
        assertThat(longPrompt.headers().firstValue("prefill-target-pod")).isEmpty();
    }

    @Test
    void randomStrategy_onlyStandardPodsServe() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .standard("standard-0").standard("standard-1").startGateway(Map.of());
        Set<String> targets = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> response = cluster.post("/v1/chat/completions", TestCluster.chat("x", 1, false));
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("routing-strategy")).contains("random");
            targets.add(response.headers().firstValue("target-pod").orElseThrow());
        }
        assertThat(targets).containsExactlyInAnyOrder("standard-0", "standard-1");
    }

    @Test
    void leastRequestHeader_picksIdleStandardPod() throws Exception {
        cluster = new TestCluster().standard("standard-0").standard("standard-1").startGateway(Map.of());
        HttpResponse<String> response = cluster.post("/v1/chat/completions", TestCluster.chat("x", 1, false),
                "routing-strategy", "least-request");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("routing-strategy")).contains("least-request");
    }
}
