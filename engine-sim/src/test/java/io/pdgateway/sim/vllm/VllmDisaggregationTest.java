package io.pdgateway.sim.vllm;

import static io.pdgateway.sim.SimTestSupport.FAST;
import static io.pdgateway.sim.SimTestSupport.JSON;
import static io.pdgateway.sim.SimTestSupport.await;
import static io.pdgateway.sim.SimTestSupport.json;
import static io.pdgateway.sim.SimTestSupport.post;
import static io.pdgateway.sim.SimTestSupport.sseData;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.RecordedRequest;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.vertx.core.Vertx;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * vLLM P/D through kv_transfer_params between a prefill pod on 127.0.0.2 and a decode pod on 127.0.0.3, driven
 * the way the gateway drives them (upstream-pd-router.md §1.2):
 * <ul>
 *   <li>the prefill answers one token and kv_transfer_params naming its host, port, engine id and blocks;</li>
 *   <li>a decode given those params (shfs: top level; nixl: inside disagg_prefill_resp) fetches the KV over the
 *       prefill pod's side channel and streams like a combined pod of the same seed would;</li>
 *   <li>the KV can be fetched once; a second use, a wrong host or an injected fetch failure is a 500 before any
 *       stream header;</li>
 *   <li>a decode request without params is prefilled locally and counted in kvMissing().</li>
 * </ul>
 */
class VllmDisaggregationTest {

    private static final String PROMPT = "Explain prefill and decode disaggregation to a curious engineer in a few "
            + "careful sentences, please, with an example about caches. Thanks.";

    private static Vertx vertx;
    private static SimPod prefill;
    private static SimPod decode;
    private static SimPod combined;

    @BeforeAll
    static void startPods() {
        vertx = Vertx.vertx();
        SimConfig base = SimConfig.builder().timeScale(FAST).seed(11).build();
        prefill = await(SimPod.start(vertx, base.toBuilder().role(SimRole.PREFILL).host("127.0.0.2").build()));
        decode = await(SimPod.start(vertx, base.toBuilder().role(SimRole.DECODE).host("127.0.0.3").build()));
        combined = await(SimPod.start(vertx, base.toBuilder().host("127.0.0.5").build()));
    }

    @AfterEach
    void invariants() {
        decode.setFaults(FaultConfig.none());
        await().atMost(Duration.ofSeconds(5)).until(() ->
                prefill.openStreams() == 0 && decode.openStreams() == 0 && combined.openStreams() == 0);
    }

    @AfterAll
    static void stop() {
        await(prefill.close());
        await(decode.close());
        await(combined.close());
        await(vertx.close());
    }

    /** The client body of these tests: streaming chat with usage. */
    private static ObjectNode clientBody(int maxTokens) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", "my-model");
        body.putArray("messages").addObject().put("role", "user").put("content", PROMPT);
        body.put("max_tokens", maxTokens);
        body.put("stream", true);
        body.putObject("stream_options").put("include_usage", true);
        return body;
    }

    /** The gateway's prefill body for the shfs connector: max_tokens 1, no stream, kv_transfer_params asking for remote decode. */
    private static ObjectNode prefillBody(boolean shfs) {
        ObjectNode body = clientBody(8);
        body.put("max_tokens", 1);
        body.put("max_completion_tokens", 1);
        body.put("stream", false);
        body.remove("stream_options");
        if (shfs) {
            ObjectNode kv = body.putObject("kv_transfer_params");
            kv.put("do_remote_decode", true);
            kv.put("do_remote_prefill", false);
            kv.putNull("remote_engine_id");
            kv.putNull("remote_block_ids");
            kv.putNull("remote_host");
            kv.putNull("remote_port");
        }
        return body;
    }

    private static JsonNode runPrefill(boolean shfs) {
        HttpResponse<String> response = post(prefill, "/v1/chat/completions", prefillBody(shfs).toString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json(response.body());
    }

    @Test
    void prefill_answersOneTokenAndKvTransferParams() {
        JsonNode response = runPrefill(true);

        assertThat(response.path("usage").path("completion_tokens").asInt()).isEqualTo(1);
        JsonNode kv = response.path("kv_transfer_params");
        assertThat(kv.path("do_remote_prefill").asBoolean()).isTrue();
        assertThat(kv.path("do_remote_decode").asBoolean()).isFalse();
        assertThat(kv.path("remote_engine_id").asText()).isEqualTo(prefill.engineId());
        assertThat(kv.path("remote_host").asText()).isEqualTo("127.0.0.2");
        assertThat(kv.path("remote_port").asInt()).isEqualTo(prefill.port());
        assertThat(kv.path("tp_size").asInt()).isEqualTo(1);
        // 137 characters → 137 / 4 = 34 prompt tokens → ceil(34 / 16) = 3 blocks.
        assertThat(response.path("usage").path("prompt_tokens").asInt()).isEqualTo(34);
        assertThat(kv.path("remote_block_ids")).hasSize(3);
        consume(kv); // leave no KV held behind for the other tests
    }

    @Test
    void decodeStream_withShfsParams_fetchesKvAndStreamsLikeCombined() {
        JsonNode kv = runPrefill(true).path("kv_transfer_params");
        int servedBefore = prefill.kvTransfersServed();
        ObjectNode decodeBody = clientBody(6);
        decodeBody.set("kv_transfer_params", kv);

        HttpResponse<String> response = post(decode, "/v1/chat/completions", decodeBody.toString());

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream; charset=utf-8");
        List<String> events = sseData(response.body());
        assertThat(events).hasSize(1 + 6 + 1 + 1).last().isEqualTo("[DONE]");
        assertThat(json(events.get(7)).path("usage").path("completion_tokens").asInt()).isEqualTo(6);
        assertThat(prefill.kvTransfersServed()).isEqualTo(servedBefore + 1);
        assertThat(sideChannelPaths()).contains("/sim/kv/" + kv.path("remote_engine_id").asText() + "/"
                + kv.path("remote_block_ids").path(0).asInt());

        List<String> reference = sseData(post(combined, "/v1/chat/completions", clientBody(6).toString()).body());
        assertThat(text(events)).isEqualTo(text(reference));
    }

    @Test
    void decode_sameKvTwice_secondFailsWith500() {
        JsonNode kv = runPrefill(true).path("kv_transfer_params");
        ObjectNode decodeBody = clientBody(3);
        decodeBody.set("kv_transfer_params", kv);
        assertThat(post(decode, "/v1/chat/completions", decodeBody.toString()).statusCode()).isEqualTo(200);

        HttpResponse<String> again = post(decode, "/v1/chat/completions", decodeBody.toString());

        assertThat(again.statusCode()).isEqualTo(500);
        assertThat(again.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(json(again.body()).path("error").path("message").asText())
                .startsWith("KV transfer failed").contains("404").contains("already transferred");
    }

    @Test
    void decode_wrongRemoteHost_failsWith500() {
        JsonNode kv = runPrefill(true).path("kv_transfer_params");
        ObjectNode misdirected = kv.deepCopy();
        misdirected.put("remote_host", "127.0.0.9");
        ObjectNode decodeBody = clientBody(3);
        decodeBody.set("kv_transfer_params", misdirected);

        HttpResponse<String> response = post(decode, "/v1/chat/completions", decodeBody.toString());

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(json(response.body()).path("error").path("message").asText())
                .startsWith("KV transfer failed").contains("127.0.0.9");
        consume(kv);
    }

    @Test
    void decode_nixlShape_usesKvInsideDisaggPrefillResp() {
        JsonNode prefillResponse = runPrefill(false);
        ObjectNode decodeBody = clientBody(4);
        decodeBody.set("disagg_prefill_resp", prefillResponse);
        int missingBefore = decode.kvMissing();

        HttpResponse<String> response = post(decode, "/v1/chat/completions", decodeBody.toString());

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(sseData(response.body())).last().isEqualTo("[DONE]");
        assertThat(decode.kvMissing()).isEqualTo(missingBefore);
        assertThat(sideChannelPaths()).contains("/sim/kv/" + prefill.engineId() + "/"
                + prefillResponse.path("kv_transfer_params").path("remote_block_ids").path(0).asInt());
    }

    @Test
    void decode_withoutKvParams_runsLocallyAndCountsMissing() {
        int missingBefore = decode.kvMissing();

        HttpResponse<String> response = post(decode, "/v1/chat/completions", clientBody(2).toString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(decode.kvMissing()).isEqualTo(missingBefore + 1);
    }

    @Test
    void decode_injectedFetchFailure_failsWith500() {
        JsonNode kv = runPrefill(true).path("kv_transfer_params");
        decode.setFaults(FaultConfig.none().withFailKvFetch());
        ObjectNode decodeBody = clientBody(2);
        decodeBody.set("kv_transfer_params", kv);

        HttpResponse<String> response = post(decode, "/v1/chat/completions", decodeBody.toString());

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(json(response.body()).path("error").path("message").asText()).startsWith("KV transfer failed");
        decode.setFaults(FaultConfig.none());
        consume(kv);
    }

    @Test
    void decode_kvOfAnotherPrompt_failsWith500() {
        JsonNode kv = runPrefill(true).path("kv_transfer_params");
        ObjectNode decodeBody = clientBody(2);
        ((ObjectNode) decodeBody.path("messages").path(0)).put("content", PROMPT.replace("curious", "furious"));
        decodeBody.set("kv_transfer_params", kv);

        HttpResponse<String> response = post(decode, "/v1/chat/completions", decodeBody.toString());

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(json(response.body()).path("error").path("message").asText()).contains("another prompt");
    }

    /**
     * A prefill pod that tokenizes for real (as one publishing KV events does) and decode pods that count characters
     * disagree on the prompt, and the decode pod says how to make them agree; a decode pod started with
     * {@code --tokenizer bundled} serves the pair.
     */
    @Test
    void tokenizers_mustAgree_acrossThePair() {
        SimConfig base = SimConfig.builder().timeScale(FAST).seed(11).build();
        SimPod tokenizing = await(SimPod.start(vertx,
                base.toBuilder().role(SimRole.PREFILL).host("127.0.0.6").bundledTokenizer(true).build()));
        SimPod alike = await(SimPod.start(vertx,
                base.toBuilder().role(SimRole.DECODE).host("127.0.0.7").bundledTokenizer(true).build()));
        try {
            for (SimPod to : List.of(decode, alike)) {
                HttpResponse<String> prefilled = post(tokenizing, "/v1/chat/completions", prefillBody(true).toString());
                assertThat(prefilled.statusCode()).as(prefilled.body()).isEqualTo(200);
                ObjectNode decodeBody = clientBody(3);
                decodeBody.set("kv_transfer_params", json(prefilled.body()).path("kv_transfer_params"));

                HttpResponse<String> response = post(to, "/v1/chat/completions", decodeBody.toString());

                if (to == decode) {
                    assertThat(response.statusCode()).isEqualTo(500);
                    assertThat(json(response.body()).path("error").path("message").asText())
                            .contains("another prompt").contains("--tokenizer bundled");
                } else {
                    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                    assertThat(sseData(response.body())).last().isEqualTo("[DONE]");
                }
            }
        } finally {
            await(tokenizing.close());
            await(alike.close());
        }
    }

    private static List<String> sideChannelPaths() {
        return prefill.recordedRequests().stream()
                .filter(r -> r.method().equals("GET") && r.path().startsWith("/sim/kv/"))
                .map(RecordedRequest::path)
                .toList();
    }

    private static String text(List<String> events) {
        StringBuilder text = new StringBuilder();
        for (String event : events) {
            if (!event.equals("[DONE]")) {
                text.append(json(event).path("choices").path(0).path("delta").path("content").asText(""));
            }
        }
        return text.toString();
    }

    /** Fetches held KV through a decode request so that the prefill pod holds nothing afterwards. */
    private static void consume(JsonNode kv) {
        ObjectNode decodeBody = clientBody(1);
        decodeBody.set("kv_transfer_params", kv);
        assertThat(post(decode, "/v1/chat/completions", decodeBody.toString()).statusCode()).isEqualTo(200);
    }
}
