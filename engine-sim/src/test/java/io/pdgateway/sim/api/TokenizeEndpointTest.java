package io.pdgateway.sim.api;

import static io.pdgateway.sim.SimTestSupport.FAST;
import static io.pdgateway.sim.SimTestSupport.await;
import static io.pdgateway.sim.SimTestSupport.json;
import static io.pdgateway.sim.SimTestSupport.post;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.kvevents.BundledTokenizer;
import io.vertx.core.Vertx;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /tokenize} over a real socket: the ids a tokenizing pod answers are its tokenizer's ids of the same text
 * its completion endpoints compute (chat messages rendered with its chat template, as its chat endpoint renders them),
 * and their count is the {@code prompt_tokens} its completions bill; SGLang's endpoint takes prompts only.
 */
class TokenizeEndpointTest {
    private static final String PROMPT = "The gateway routes prefill and decode legs across pods.";
    private static final String COMPLETION = "{\"model\":\"m\",\"prompt\":\"" + PROMPT + "\",\"max_tokens\":1}";
    private final Vertx vertx = Vertx.vertx();
    private SimPod pod;

    @AfterEach
    void tearDown() {
        if (pod != null) {
            await(pod.close());
        }
        await(vertx.close());
    }

    private void start(String engine, boolean tokenizes) {
        pod = await(SimPod.start(vertx, SimConfig.builder().engine(engine).timeScale(FAST).modelName("m")
                .bundledTokenizer(tokenizes).build()));
    }

    @Test
    void vllmTextPrompt_answersTheTokenizersIds_asManyAsTheCompletionBills() {
        start("vllm", true);

        JsonNode answer = ok(post(pod, "/tokenize", "{\"model\":\"m\",\"prompt\":\"" + PROMPT + "\"}"));
        JsonNode plain = ok(post(pod, "/tokenize", "{\"model\":\"m\",\"prompt\":\"" + PROMPT + "\","
                + "\"add_special_tokens\":false}"));

        assertThat(ids(answer)).as("the tokenizer's BOS first, as a completion's prompt gets it")
                .containsExactlyElementsOf(boxed(BundledTokenizer.get().encodeAddingSpecialTokens(PROMPT)))
                .startsWith(BundledTokenizer.get().tokenId("<|begin_of_text|>"));
        assertThat(answer.get("count").asInt()).isEqualTo(ids(answer).size())
                .isEqualTo(billed("/v1/completions", COMPLETION));
        assertThat(answer.get("max_model_len").asInt()).isPositive();
        assertThat(ids(plain)).containsExactlyElementsOf(boxed(BundledTokenizer.get().encode(PROMPT)));
    }

    @Test
    void vllmChatMessages_areTokenizedAsItsChatEndpointReadsThem() {
        start("vllm", true);
        String messages = "[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\",\"content\":\""
                + PROMPT + "\"}]";

        JsonNode answer = ok(post(pod, "/tokenize", "{\"model\":\"m\",\"messages\":" + messages
                + ",\"add_generation_prompt\":true,\"add_special_tokens\":false}"));

        assertThat(ids(answer)).as("rendered in Llama 3's format, as vLLM renders the model's template")
                .containsExactlyElementsOf(boxed(BundledTokenizer.get().encode("<|begin_of_text|>"
                        + "<|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|>"
                        + "<|start_header_id|>user<|end_header_id|>\n\n" + PROMPT + "<|eot_id|>"
                        + "<|start_header_id|>assistant<|end_header_id|>\n\n")));
        assertThat(answer.get("count").asInt()).isEqualTo(
                billed("/v1/chat/completions", "{\"model\":\"m\",\"messages\":" + messages + ",\"max_tokens\":1}"));
    }

    @Test
    void aPodThatCountsText_answersOnePseudoIdPerFourCharacters() {
        start("vllm", false);

        JsonNode answer = ok(post(pod, "/tokenize", "{\"model\":\"m\",\"prompt\":\"" + PROMPT + "\"}"));

        assertThat(answer.get("count").asInt()).isEqualTo(PROMPT.length() / 4).isEqualTo(ids(answer).size())
                .isEqualTo(billed("/v1/completions", COMPLETION));
    }

    @Test
    void sglang_tokenizesPrompts_andRefusesMessages() {
        start("sglang", true);

        JsonNode answer = ok(post(pod, "/tokenize", "{\"model\":\"m\",\"prompt\":\"" + PROMPT + "\"}"));
        HttpResponse<String> chat = post(pod, "/tokenize",
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(ids(answer))
                .containsExactlyElementsOf(boxed(BundledTokenizer.get().encodeAddingSpecialTokens(PROMPT)));
        assertThat(chat.statusCode()).isEqualTo(400);
        assertThat(chat.body()).contains("prompt is required");
    }

    @Test
    void aBodyThatIsNotJson_isA400() {
        start("vllm", true);

        HttpResponse<String> answer = post(pod, "/tokenize", "{not json");

        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(json(answer.body()).path("error").path("message").asText())
                .as("as the completion endpoints answer it").contains("Invalid JSON in request body");
    }

    private static JsonNode ok(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json(response.body());
    }

    private int billed(String path, String body) {
        return ok(post(pod, path, body)).path("usage").path("prompt_tokens").asInt();
    }

    private static List<Integer> ids(JsonNode answer) {
        List<Integer> ids = new ArrayList<>();
        answer.get("tokens").forEach(id -> ids.add(id.asInt()));
        return ids;
    }

    private static List<Integer> boxed(int[] ids) {
        List<Integer> out = new ArrayList<>();
        for (int id : ids) {
            out.add(id);
        }
        return out;
    }
}
