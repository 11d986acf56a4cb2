package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimRole;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Every error a client can get, as OpenAI-style JSON with all four keys and the spec's headers, and a bad request
 * never disturbing the good ones beside it.
 */
class ErrorsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    @AutoClose
    private TestCluster cluster;

    private static JsonNode error(HttpResponse<String> response) throws Exception {
        assertThat(response.headers().firstValue("content-type")).contains("application/json");
        JsonNode error = JSON.readTree(response.body()).get("error");
        assertThat(error).isNotNull();
        assertThat(error.has("message") && error.has("type") && error.has("code") && error.has("param"))
                .as("all four keys present: " + error).isTrue();
        return error;
    }

    private TestCluster pdPair(Map<String, String> env) throws Exception {
        return new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0").startGateway(env);
    }

    @Test
    void malformedJson_400() throws Exception {
        cluster = pdPair(Map.of("ROUTING_ALGORITHM", "pd"));
        HttpResponse<String> response = cluster.post("/v1/chat/completions", "{\"model\": \"my-model\", ");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response).get("type").asText()).isEqualTo("invalid_request_error");
    }

    @Test
    void missingModelOrMessages_400NamingTheField() throws Exception {
        cluster = pdPair(Map.of("ROUTING_ALGORITHM", "pd"));
        HttpResponse<String> noModel = cluster.post("/v1/chat/completions", "{\"messages\":[{\"content\":\"x\"}]}");
        assertThat(noModel.statusCode()).isEqualTo(400);
        assertThat(error(noModel).get("param").asText()).isEqualTo("model");
        HttpResponse<String> noMessages = cluster.post("/v1/chat/completions", "{\"model\":\"my-model\"}");
        assertThat(noMessages.statusCode()).isEqualTo(400);
        assertThat(error(noMessages).get("param").asText()).isEqualTo("messages");
    }

    @Test
    void unknownModel_404ModelNotFound() throws Exception {
        cluster = pdPair(Map.of("ROUTING_ALGORITHM", "pd"));
        HttpResponse<String> response = cluster.post("/v1/chat/completions",
                "{\"model\":\"nope\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
        assertThat(response.statusCode()).isEqualTo(404);
        JsonNode error = error(response);
        assertThat(error.get("code").asText()).isEqualTo("model_not_found");
        assertThat(error.get("param").asText()).isEqualTo("model");
    }

    @Test
    void noCompletePair_503() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").startGateway(Map.of("ROUTING_ALGORITHM", "pd"));
        HttpResponse<String> response = cluster.post("/v1/chat/completions", TestCluster.chat("x", 2, false));
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(error(response).get("message").asText()).contains("no complete prefill/decode pair");
        assertThat(response.headers().firstValue("Retry-After")).as("a pod coming up lifts it").hasValue("1");
    }

    @Test
    void onlyPdPodsForASinglePodStrategy_503WithoutRetryAfter() throws Exception {
        cluster = pdPair(Map.of());
        HttpResponse<String> response = cluster.post("/v1/chat/completions", TestCluster.chat("x", 2, false),
                "routing-strategy", "random");
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(error(response).get("code").asText()).isEqualTo("no_standalone_pod");
        assertThat(response.headers().firstValue("Retry-After")).as("only a new deployment lifts it").isEmpty();
    }

    @Test
    void unknownStrategyHeader_400() throws Exception {
        cluster = pdPair(Map.of());
        HttpResponse<String> response = cluster.post("/v1/chat/completions", TestCluster.chat("x", 2, false),
                "routing-strategy", "fastest-please");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response).get("message").asText()).contains("fastest-please");
    }

    @Test
    void promptBatchToVllmPair_400BeforeAnyLeg_onePromptInAListServed() throws Exception {
        // A standard pod is there, but without prompt-length bucketing it takes no PD request (spec), a batch included.
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0").standard("standard-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd"));
        HttpResponse<String> batch = cluster.post("/v1/completions",
                "{\"model\":\"my-model\",\"prompt\":[\"first prompt\",\"second prompt\"],\"max_tokens\":3}");
        assertThat(batch.statusCode()).isEqualTo(400);
        JsonNode error = error(batch);
        assertThat(error.get("code").asText()).isEqualTo("invalid_request_body");
        assertThat(error.get("message").asText()).contains("a batch of 2 prompts").contains("vllm");
        assertThat(cluster.inferenceRequests("prefill-0")).as("no prefill computed for a decode never sent").isEmpty();
        assertThat(cluster.inferenceRequests("standard-0")).isEmpty();
        HttpResponse<String> single = cluster.post("/v1/completions",
                "{\"model\":\"my-model\",\"prompt\":[\"one prompt in a list\"],\"max_tokens\":3}");
        assertThat(single.statusCode()).isEqualTo(200);
        assertThat(cluster.inferenceRequests("decode-0")).hasSize(1);
    }

    @Test
    void promptBatchToVllmPair_servedWholeByTheStandardPod_whenStandardPodsTakePdRequests() throws Exception {
        // Bucketing on: standard pods take PD requests (spec, "Add Standard Inference Pods"), so the batch no pair
        // can carry is theirs; a single prompt still goes to the pair.
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0").standard("standard-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_PROMPT_LENGTH_BUCKETING", "true"));
        String body = "{\"model\":\"my-model\",\"prompt\":[\"first prompt\",\"second prompt\"],\"max_tokens\":3}";
        HttpResponse<String> batch = cluster.post("/v1/completions", body, "x-pd-debug", "true");
        assertThat(batch.statusCode()).as(batch.body()).isEqualTo(200);
        assertThat(batch.headers().firstValue("target-pod")).contains("standard-0");
        assertThat(batch.headers().firstValue("prefill-target-pod")).isEmpty();
        assertThat(batch.headers().firstValue("x-pd-decision").orElseThrow())
                .contains("no prefill/decode pair can carry the body (a batch of 2 prompts");
        assertThat(cluster.inferenceRequests("standard-0")).hasSize(1);
        assertThat(cluster.inferenceRequests("standard-0").get(0).body()).contains("\"second prompt\"");
        assertThat(cluster.inferenceRequests("prefill-0")).isEmpty();
        assertThat(cluster.get("/metrics").body()).contains(
                "pd_gateway_routed_requests_total{fallback=\"true\",model=\"my-model\",route=\"standard\"} 1.0");

        HttpResponse<String> single = cluster.post("/v1/completions",
                "{\"model\":\"my-model\",\"prompt\":\"one prompt\",\"max_tokens\":3}");
        assertThat(single.statusCode()).isEqualTo(200);
        assertThat(single.headers().firstValue("prefill-target-pod")).contains("prefill-0");
    }

    @Test
    void oversizedBody_413() throws Exception {
        cluster = pdPair(Map.of("ROUTING_ALGORITHM", "pd", "PD_GATEWAY_MAX_REQUEST_BODY_BYTES", "1000"));
        HttpResponse<String> response = cluster.post("/v1/chat/completions", TestCluster.chat("x".repeat(2000), 2, false));
        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(error(response).get("code").asText()).isEqualTo("request_too_large");
        assertThat(cluster.inferenceRequests("prefill-0")).isEmpty();
    }

    @Test
    void prefill500_502WithPrefillHeader_decodeNeverCalled() throws Exception {
        cluster = pdPair(Map.of("ROUTING_ALGORITHM", "pd"));
        cluster.simPod("prefill-0").setFaults(FaultConfig.none().withErrors(1.0, 500));
        HttpResponse<String> response = cluster.post("/v1/chat/completions", TestCluster.chat("x", 2, true));
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.headers().firstValue("x-error-pd-prefill")).contains("true");
        assertThat(error(response).get("message").asText()).contains("500");
        assertThat(cluster.inferenceRequests("decode-0")).isEmpty();
        assertThat(cluster.get("/metrics").body())
                .contains("gateway_prefill_request_fail_total{status=\"http_error\",status_code=\"500\"} 1.0");
    }

    @Test
    void prefill4xx_passesThroughWithPrefillHeader() throws Exception {
        cluster = pdPair(Map.of("ROUTING_ALGORITHM", "pd"));
        cluster.simPod("prefill-0").setFaults(FaultConfig.none().withErrors(1.0, 422));
        HttpResponse<String> response = cluster.post("/v1/chat/completions", TestCluster.chat("x", 2, false));
        assertThat(response.statusCode()).isEqualTo(422);
        assertThat(response.headers().firstValue("x-error-pd-prefill")).contains("true");
    }

    @Test
    void prefillHangs_504AfterPrefillTimeout() throws Exception {
        cluster = pdPair(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_PREFILL_REQUEST_TIMEOUT", "0.5"));
        cluster.simPod("prefill-0").setFaults(FaultConfig.none().withHangBeforeHeaders());
        long start = System.nanoTime();
        HttpResponse<String> response = cluster.post("/v1/chat/completions", TestCluster.chat("x", 2, false));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(response.headers().firstValue("x-error-pd-prefill")).contains("true");
        assertThat(millis).isBetween(400L, 5_000L);
    }

    @Test
    void prefillPodGone_502() throws Exception {
        cluster = pdPair(Map.of("ROUTING_ALGORITHM", "pd"));
        cluster.stopPod("prefill-0");
        HttpResponse<String> response = cluster.post("/v1/chat/completions", TestCluster.chat("x", 2, false));
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.headers().firstValue("x-error-pd-prefill")).contains("true");
    }

    @Test
    void badRequestsBesideGoodOnes_goodOnesAllSucceed() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .pod("standard-0", SimRole.COMBINED, null, Map.of(), null)
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd"));
        List<CompletableFuture<HttpResponse<String>>> good = new ArrayList<>();
        List<CompletableFuture<HttpResponse<String>>> bad = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            good.add(CompletableFuture.supplyAsync(() -> send(TestCluster.chat("good", 4, true))));
            bad.add(CompletableFuture.supplyAsync(() -> send("{\"model\":\"my-model\",\"messages\":")));
            bad.add(CompletableFuture.supplyAsync(() -> send("{\"model\":\"other\",\"messages\":[{\"content\":\"x\"}]}")));
        }
        for (CompletableFuture<HttpResponse<String>> f : good) {
            assertThat(f.get().statusCode()).isEqualTo(200);
            assertThat(f.get().body()).endsWith("data: [DONE]\n\n");
        }
        for (CompletableFuture<HttpResponse<String>> f : bad) {
            assertThat(f.get().statusCode()).isIn(400, 404);
        }
    }

    private HttpResponse<String> send(String body) {
        try {
            return cluster.post("/v1/chat/completions", body);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
