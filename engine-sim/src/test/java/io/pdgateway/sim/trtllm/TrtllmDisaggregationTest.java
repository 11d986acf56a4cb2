package io.pdgateway.sim.trtllm;

import static io.pdgateway.sim.SimTestSupport.FAST;
import static io.pdgateway.sim.SimTestSupport.JSON;
import static io.pdgateway.sim.SimTestSupport.await;
import static io.pdgateway.sim.SimTestSupport.get;
import static io.pdgateway.sim.SimTestSupport.json;
import static io.pdgateway.sim.SimTestSupport.post;
import static io.pdgateway.sim.SimTestSupport.prometheus;
import static io.pdgateway.sim.SimTestSupport.sseData;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.vertx.core.Vertx;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * TensorRT-LLM P/D between a context worker on 127.0.0.30 and a generation worker on 127.0.0.31, plus a context
 * worker with the C++ transceiver on 127.0.0.32, driven as a PD router drives them (upstream-pd-router.md §1.4, spec
 * "TensorRT-LLM Parallel Scheduling"):
 * <ul>
 *   <li>context_first: context_only answers its params in choices[0] and prompt_token_ids; generation_only with those
 *       params and ids fetches the KV and streams;</li>
 *   <li>wrong params fail: a local id, a wrong ctx_request_id, max_completion_tokens, the wrong request type;</li>
 *   <li>generation_first: the generation leg waits for the KV, the context leg answers once it was taken;</li>
 *   <li>/server_info reports the metadata with the Python transceiver only; /prometheus/metrics speaks trtllm_.</li>
 * </ul>
 */
class TrtllmDisaggregationTest {

    private static final AtomicLong IDS = new AtomicLong((1L << 42) + 5_000);

    private static Vertx vertx;
    private static SimPod context;
    private static SimPod generation;
    private static SimPod cppContext;

    @BeforeAll
    static void startPods() {
        vertx = Vertx.vertx();
        SimConfig base = SimConfig.builder().engine("trtllm").timeScale(FAST).seed(8).build();
        context = await(SimPod.start(vertx, base.toBuilder().role(SimRole.PREFILL).host("127.0.0.30").build()));
        generation = await(SimPod.start(vertx, base.toBuilder().role(SimRole.DECODE).host("127.0.0.31").build()));
        cppContext = await(SimPod.start(vertx, base.toBuilder().role(SimRole.PREFILL).host("127.0.0.32")
                .trtPythonTransceiver(false).build()));
    }

    @AfterEach
    void invariants() {
        await().atMost(Duration.ofSeconds(5)).until(() ->
                context.openStreams() == 0 && generation.openStreams() == 0 && cppContext.openStreams() == 0);
    }

    @AfterAll
    static void stop() {
        await(context.close());
        await(generation.close());
        await(cppContext.close());
        await(vertx.close());
    }

    private static ObjectNode chat(int maxTokens, boolean stream) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", "my-model");
        body.putArray("messages").addObject().put("role", "user").put("content", "what is a context worker for?");
        body.put("max_tokens", maxTokens);
        body.put("stream", stream);
        return body;
    }

    private static ObjectNode contextOnly(long id) {
        ObjectNode body = chat(1, false);
        body.putObject("disaggregated_params").put("request_type", "context_only").put("disagg_request_id", id);
        return body;
    }

    @Test
    void contextFirst_paramsAndPromptIdsCarryTheKvToTheGenerationWorker() {
        long id = IDS.incrementAndGet();
        HttpResponse<String> ctx = post(context, "/v1/chat/completions", contextOnly(id).toString());
        assertThat(ctx.statusCode()).as(ctx.body()).isEqualTo(200);
        JsonNode answer = json(ctx.body());
        JsonNode params = answer.path("choices").path(0).path("disaggregated_params");
        assertThat(params.path("request_type").asText()).isEqualTo("context_only");
        assertThat(params.path("disagg_request_id").asLong()).isEqualTo(id);
        assertThat(params.path("ctx_info_endpoint").asText()).isEqualTo("tcp://127.0.0.30:" + context.port());
        assertThat(params.path("first_gen_tokens")).hasSize(1);
        // "what is a context worker for?" is 29 characters: 7 pseudo token ids.
        assertThat(answer.path("prompt_token_ids")).hasSize(7);

        ObjectNode gen = chat(5, true);
        ObjectNode genParams = ((ObjectNode) params).deepCopy().put("request_type", "generation_only");
        gen.set("disaggregated_params", genParams);
        gen.set("prompt_token_ids", answer.path("prompt_token_ids"));
        int served = context.kvTransfersServed();
        HttpResponse<String> streamed = post(generation, "/v1/chat/completions", gen.toString());

        assertThat(streamed.statusCode()).as(streamed.body()).isEqualTo(200);
        assertThat(sseData(streamed.body())).hasSize(1 + 5 + 1).last().isEqualTo("[DONE]");
        assertThat(context.kvTransfersServed()).isEqualTo(served + 1);
    }

    @Test
    void generation_wrongCtxRequestId_500() {
        long id = IDS.incrementAndGet();
        JsonNode params = json(post(context, "/v1/chat/completions", contextOnly(id).toString()).body())
                .path("choices").path(0).path("disaggregated_params");
        ObjectNode gen = chat(3, false);
        gen.set("disaggregated_params", ((ObjectNode) params).deepCopy().put("request_type", "generation_only")
                .put("ctx_request_id", params.path("ctx_request_id").asLong() + 1000));

        HttpResponse<String> response = post(generation, "/v1/chat/completions", gen.toString());

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(json(response.body()).path("message").asText()).startsWith("KV transfer failed").contains("409");
    }

    @Test
    void refusals_400() {
        ObjectNode local = contextOnly(12_345);
        assertThat(post(context, "/v1/chat/completions", local.toString()).body()).contains("local id");
        ObjectNode maxCompletion = contextOnly(IDS.incrementAndGet()).put("max_completion_tokens", 1);
        HttpResponse<String> refused = post(context, "/v1/chat/completions", maxCompletion.toString());
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("max_completion_tokens");
        HttpResponse<String> wrongRole = post(generation, "/v1/chat/completions",
                contextOnly(IDS.incrementAndGet()).toString());
        assertThat(wrongRole.statusCode()).isEqualTo(400);
        assertThat(wrongRole.body()).contains("generation_only");
    }

    @Test
    void generationFirst_generationWaits_contextAnswersOnceTaken() {
        long id = IDS.incrementAndGet();
        JsonNode info = json(get(context, "/server_info").body()).path("disaggregated_params");
        ObjectNode gen = chat(4, false);
        gen.putObject("disaggregated_params").put("request_type", "generation_only").put("disagg_request_id", id)
                .put("ctx_request_id", id).put("schedule_style", 1)
                .put("ctx_info_endpoint", info.path("ctx_info_endpoint").asText())
                .put("ctx_dp_rank", info.path("ctx_dp_rank").asInt());
        CompletableFuture<HttpResponse<String>> waiting = CompletableFuture.supplyAsync(
                () -> post(generation, "/v1/chat/completions", gen.toString()));
        await().atMost(Duration.ofSeconds(5)).until(() -> generation.openStreams() == 1);
        ObjectNode ctx = contextOnly(id);
        ((ObjectNode) ctx.get("disaggregated_params")).put("schedule_style", 1);

        HttpResponse<String> ctxAnswer = post(context, "/v1/chat/completions", ctx.toString());

        assertThat(ctxAnswer.statusCode()).as(ctxAnswer.body()).isEqualTo(200);
        HttpResponse<String> generated = waiting.join();
        assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
        assertThat(json(generated.body()).path("usage").path("completion_tokens").asInt()).isEqualTo(4);
    }

    @Test
    void serverInfo_pythonTransceiverReportsMetadata_cppReportsNone() {
        JsonNode python = json(get(context, "/server_info").body()).path("disaggregated_params");
        assertThat(python.path("ctx_info_endpoint").asText()).isEqualTo("tcp://127.0.0.30:" + context.port());
        assertThat(python.path("ctx_dp_rank").asInt()).isZero();
        assertThat(json(get(cppContext, "/server_info").body()).path("disaggregated_params").isEmpty()).isTrue();
        ObjectNode generationFirst = contextOnly(IDS.incrementAndGet());
        ((ObjectNode) generationFirst.get("disaggregated_params")).put("schedule_style", 1);
        assertThat(post(cppContext, "/v1/chat/completions", generationFirst.toString()).statusCode()).isEqualTo(400);
    }

    @Test
    void generationWithoutParams_computesThePromptItself() {
        int missing = generation.kvMissing();
        assertThat(post(generation, "/v1/chat/completions", chat(2, false).toString()).statusCode()).isEqualTo(200);
        assertThat(generation.kvMissing()).isEqualTo(missing + 1);
    }

    @Test
    void metrics_trtllmNamesUnderPrometheusPath() {
        Map<String, Double> samples = prometheus(get(generation, "/prometheus/metrics").body());
        assertThat(samples).containsKey("trtllm_kv_cache_utilization{model_name=\"my-model\",engine_type=\"trtllm\"}");
        assertThat(samples.keySet()).anyMatch(k -> k.startsWith("trtllm_request_success_total{"));
        assertThat(get(generation, "/metrics").statusCode()).isEqualTo(404);
    }
}
