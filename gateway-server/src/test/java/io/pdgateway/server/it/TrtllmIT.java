package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.RecordedRequest;
import io.pdgateway.sim.SimPod;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * PD through a TensorRT-LLM pair, end to end against simulated workers: context_first's Snowflake id (with the
 * machine id) carried digit for digit, the context's params and prompt_token_ids in the generation body,
 * max_completion_tokens kept off both legs; generation_first with a valid /server_info (looked up once, then cached)
 * and without (503 before either leg); a context failure resetting the generation stream; a client who leaves closing
 * the generation leg; an unknown schedule style staying on context_first.
 */
class TrtllmIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAT = "/v1/chat/completions";
    private static final Pattern DISAGG_ID = Pattern.compile("\"disagg_request_id\":(\\d+)");
    @AutoClose
    private TestCluster cluster;

    private TestCluster pair(Map<String, String> env) throws Exception {
        return new TestCluster("trtllm").prefill("ctx-0", "group-0").decode("gen-0", "group-0").startGateway(env);
    }

    private static List<RecordedRequest> requests(SimPod pod, String path) {
        return pod.recordedRequests().stream().filter(r -> r.path().equals(path)).toList();
    }

    /** The id exactly as written on the wire: a double would already have rounded it. */
    private static String disaggId(String body) {
        Matcher matcher = DISAGG_ID.matcher(body);
        assertThat(matcher.find()).as("disagg_request_id in " + body).isTrue();
        return matcher.group(1);
    }

    @Test
    void contextFirst_chatStream_paramsAndPromptIdsCarried_idExactToTheDigit() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_TRT_MACHINE_ID", "5"));
        String client = "{\"model\":\"my-model\",\"messages\":[{\"role\":\"user\",\"content\":\"context please\"}],"
                + "\"max_completion_tokens\":6,\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                + "\"seed\":9007199254740993}";

        HttpResponse<String> response = cluster.post(CHAT, client);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).contains("\"completion_tokens\":6").endsWith("data: [DONE]\n\n");
        SimPod ctx = cluster.simPod("ctx-0");
        String prefillBody = requests(ctx, CHAT).get(0).body();
        String decodeBody = requests(cluster.simPod("gen-0"), CHAT).get(0).body();
        JsonNode prefill = JSON.readTree(prefillBody);
        JsonNode decode = JSON.readTree(decodeBody);
        assertThat(prefill.path("disaggregated_params").path("request_type").asText()).isEqualTo("context_only");
        assertThat(prefill.has("max_completion_tokens")).isFalse();
        assertThat(prefill.get("max_tokens").asInt()).isEqualTo(1);
        String id = disaggId(prefillBody);
        long parsed = Long.parseLong(id);
        assertThat(parsed).isGreaterThanOrEqualTo(1L << 42);
        assertThat((parsed - (1L << 42)) >> 12 & 0x3FF).as("AIBRIX_TRT_MACHINE_ID in the id").isEqualTo(5);
        assertThat(disaggId(decodeBody)).isEqualTo(id);
        JsonNode params = decode.path("disaggregated_params");
        assertThat(params.path("request_type").asText()).isEqualTo("generation_only");
        assertThat(params.path("ctx_request_id").isIntegralNumber()).isTrue();
        assertThat(params.path("ctx_info_endpoint").asText()).isEqualTo("tcp://" + ctx.host() + ":" + ctx.port());
        assertThat(decode.path("prompt_token_ids")).as("the context's token ids").hasSize("context please".length() / 4);
        assertThat(decode.has("max_completion_tokens")).isFalse();
        assertThat(decode.get("max_tokens").asInt()).isEqualTo(6);
        assertThat(decodeBody).contains("\"seed\":9007199254740993");
        assertThat(ctx.kvTransfersServed()).isEqualTo(1);
    }

    @Test
    void contextFirst_completions_promptBecomesTheContextsIds() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd"));

        HttpResponse<String> response = cluster.post("/v1/completions",
                "{\"model\":\"my-model\",\"prompt\":\"once upon a time there\",\"max_tokens\":3}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode decode = requests(cluster.simPod("gen-0"), "/v1/completions").get(0).json();
        assertThat(decode.get("prompt").isArray()).isTrue();
        assertThat(decode.get("prompt")).hasSize("once upon a time there".length() / 4);
    }

    @Test
    void generationFirst_validServerInfo_sharedIdBothLegsAtOnce_lookedUpOnce() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_TRT_SCHEDULE_STYLE", "generation_first"));
        SimPod ctx = cluster.simPod("ctx-0");

        for (int i = 0; i < 2; i++) {
            HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("generation first " + i, 4, true));
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(response.body()).endsWith("data: [DONE]\n\n");
        }

        assertThat(requests(ctx, "/server_info")).as("cached for a minute").hasSize(1);
        String prefillBody = requests(ctx, CHAT).get(1).body();
        String decodeBody = requests(cluster.simPod("gen-0"), CHAT).get(1).body();
        assertThat(disaggId(decodeBody)).isEqualTo(disaggId(prefillBody));
        JsonNode context = JSON.readTree(prefillBody).path("disaggregated_params");
        assertThat(context.path("schedule_style").asInt()).isEqualTo(1);
        JsonNode generation = JSON.readTree(decodeBody).path("disaggregated_params");
        assertThat(generation.path("request_type").asText()).isEqualTo("generation_only");
        assertThat(generation.path("schedule_style").asInt()).isEqualTo(1);
        assertThat(generation.path("ctx_request_id").asLong()).isEqualTo(Long.parseLong(disaggId(decodeBody)));
        assertThat(generation.path("ctx_info_endpoint").asText()).isEqualTo("tcp://" + ctx.host() + ":" + ctx.port());
        assertThat(generation.path("ctx_dp_rank").asInt()).isZero();
        assertThat(ctx.kvTransfersServed()).isEqualTo(2);
    }

    @Test
    void generationFirst_cppTransceiver_503BeforeEitherLeg() throws Exception {
        cluster = new TestCluster("trtllm").withSimOptions(b -> b.trtPythonTransceiver(false))
                .prefill("ctx-0", "group-0").decode("gen-0", "group-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_TRT_SCHEDULE_STYLE", "generation_first"));

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("no metadata", 4, true));

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(JSON.readTree(response.body()).path("error").path("message").asText())
                .contains("ctx-0").contains("Python KV-cache transceiver");
        assertThat(requests(cluster.simPod("ctx-0"), CHAT)).isEmpty();
        assertThat(requests(cluster.simPod("gen-0"), CHAT)).isEmpty();
    }

    @Test
    void generationFirst_contextFails_generationStreamReset() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_TRT_SCHEDULE_STYLE", "generation_first"));
        SimPod gen = cluster.simPod("gen-0");
        cluster.simPod("ctx-0").setFaults(FaultConfig.none().withErrors(1.0, 500));
        long started = System.nanoTime();

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("context fails", 4, true));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.headers().firstValue("x-error-pd-prefill")).contains("true");
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(gen.streamsCancelled()).as("the generation leg's connection was closed").isEqualTo(1);
            assertThat(gen.openStreams()).isZero();
        });
    }

    @Test
    void clientLeaves_generationConnectionClosed() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd"));
        SimPod gen = cluster.simPod("gen-0");
        gen.setFaults(FaultConfig.none().withHangAfterTokens(2));
        try (RawStream stream = new RawStream(cluster.gateway().port(), CHAT, TestCluster.chat("bye", 30, true))) {
            await().atMost(Duration.ofSeconds(3)).until(stream::contentEvents, n -> n >= 2);
        }
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(gen.streamsCancelled()).isEqualTo(1);
            assertThat(gen.openStreams()).isZero();
        });
        assertThat(requests(gen, "/abort_request")).as("TensorRT-LLM has no abort endpoint").isEmpty();
    }

    @Test
    void unknownScheduleStyle_staysOnContextFirst() throws Exception {
        cluster = pair(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_TRT_SCHEDULE_STYLE", "sideways"));

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("fallback", 3, false));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(requests(cluster.simPod("ctx-0"), "/server_info")).isEmpty();
        JsonNode context = requests(cluster.simPod("ctx-0"), CHAT).get(0).json().path("disaggregated_params");
        assertThat(context.has("schedule_style")).isFalse();
    }
}
