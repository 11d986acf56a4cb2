package io.pdgateway.sim;

import static io.pdgateway.sim.SimTestSupport.FAST;
import static io.pdgateway.sim.SimTestSupport.await;
import static io.pdgateway.sim.SimTestSupport.chat;
import static io.pdgateway.sim.SimTestSupport.get;
import static io.pdgateway.sim.SimTestSupport.json;
import static io.pdgateway.sim.SimTestSupport.post;
import static io.pdgateway.sim.SimTestSupport.sseData;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Vertx;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A combined vLLM pod speaks the OpenAI wire protocol as vLLM does: non-streaming objects with usage, SSE
 * streams with a role chunk, one chunk per token (each its own HTTP chunk), the finish reason on the last one,
 * an optional usage chunk and [DONE]; 400/404 error bodies; /v1/models and /health; it records what it got. And
 * {@code n} sampled completions: n choices indexed 0 to n − 1, each its own text (choice 0 the text of the same request
 * without n), streamed as each choice's chunks (a chat stream opens every choice with its role chunk) and counted
 * together in the usage; n below 1 refused.
 */
class CombinedPodTest {

    private static Vertx vertx;
    private static SimPod pod;

    @BeforeAll
    static void startPod() {
        vertx = Vertx.vertx();
        pod = await(SimPod.start(vertx, SimConfig.builder().host("127.0.0.4").timeScale(FAST).seed(7).build()));
    }

    @AfterEach
    void noStreamLeftOpen() {
        await().atMost(Duration.ofSeconds(5)).until(() -> pod.openStreams() == 0);
    }

    @AfterAll
    static void stop() {
        await(pod.close());
        await(vertx.close());
    }

    @Test
    void chatNonStream_answersCompletionWithUsage() {
        HttpResponse<String> response = post(pod, "/v1/chat/completions", chat("my-model", "Hello there, how are you today?", 5, false));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode body = json(response.body());
        assertThat(body.path("id").asText()).startsWith("chatcmpl-");
        assertThat(body.path("object").asText()).isEqualTo("chat.completion");
        assertThat(body.path("model").asText()).isEqualTo("my-model");
        assertThat(body.path("created").asLong()).isPositive();
        JsonNode choice = body.path("choices").path(0);
        assertThat(choice.path("message").path("role").asText()).isEqualTo("assistant");
        assertThat(choice.path("message").path("content").asText().split(" ")).hasSize(5);
        assertThat(choice.path("finish_reason").asText()).isEqualTo("length");
        // "Hello there, how are you today?" is 31 characters: 31 / 4 = 7 tokens.
        assertThat(body.path("usage").path("prompt_tokens").asInt()).isEqualTo(7);
        assertThat(body.path("usage").path("completion_tokens").asInt()).isEqualTo(5);
        assertThat(body.path("usage").path("total_tokens").asInt()).isEqualTo(12);
        assertThat(body.has("kv_transfer_params")).isTrue();
        assertThat(body.path("kv_transfer_params").isNull()).isTrue();
    }

    @Test
    void chatStream_eachTokenItsOwnChunk_endsWithUsageAndDone() throws Exception {
        String request = "{\"model\":\"my-model\",\"messages\":[{\"role\":\"user\",\"content\":\"stream to me\"}],"
                + "\"max_completion_tokens\":4,\"stream\":true,\"stream_options\":{\"include_usage\":true}}";
        try (RawHttp http = RawHttp.connect(pod.host(), pod.port(), Duration.ofSeconds(5))) {
            http.post("/v1/chat/completions", request);
            RawHttp.Head head = http.readHead();
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.headers().get("content-type")).isEqualTo("text/event-stream; charset=utf-8");
            assertThat(head.chunked()).isTrue();

            StringBuilder all = new StringBuilder();
            for (String chunk = http.readChunk(); chunk != null; chunk = http.readChunk()) {
                assertThat(sseData(chunk)).as("one SSE event per HTTP chunk").hasSize(1);
                all.append(chunk);
            }
            List<String> events = sseData(all.toString());
            // role chunk, 4 token chunks (the last with finish_reason), usage chunk, [DONE]
            assertThat(events).hasSize(7);
            JsonNode role = json(events.get(0));
            assertThat(role.path("object").asText()).isEqualTo("chat.completion.chunk");
            assertThat(role.path("choices").path(0).path("delta").path("role").asText()).isEqualTo("assistant");
            for (int i = 1; i <= 4; i++) {
                JsonNode token = json(events.get(i));
                assertThat(token.path("id").asText()).isEqualTo(role.path("id").asText());
                assertThat(token.path("choices").path(0).path("delta").path("content").asText()).isNotEmpty();
                assertThat(token.path("choices").path(0).path("finish_reason").isNull()).isEqualTo(i < 4);
            }
            assertThat(json(events.get(4)).path("choices").path(0).path("finish_reason").asText()).isEqualTo("length");
            JsonNode usage = json(events.get(5));
            assertThat(usage.path("choices")).isEmpty();
            assertThat(usage.path("usage").path("completion_tokens").asInt()).isEqualTo(4);
            assertThat(events.get(6)).isEqualTo("[DONE]");
        }
    }

    @Test
    void completionsNonStreamAndStream_sameSeedSameText() {
        String prompt = "\"prompt\":\"Once upon a time in a land far away\",\"max_tokens\":6";
        JsonNode whole = json(post(pod, "/v1/completions", "{\"model\":\"my-model\"," + prompt + "}").body());
        assertThat(whole.path("object").asText()).isEqualTo("text_completion");
        assertThat(whole.path("id").asText()).startsWith("cmpl-");
        assertThat(whole.path("choices").path(0).path("finish_reason").asText()).isEqualTo("length");

        HttpResponse<String> streamed = post(pod, "/v1/completions", "{\"model\":\"my-model\"," + prompt + ",\"stream\":true}");
        List<String> events = sseData(streamed.body());
        assertThat(events).hasSize(7).last().isEqualTo("[DONE]");
        StringBuilder text = new StringBuilder();
        events.subList(0, 6).forEach(e -> text.append(json(e).path("choices").path(0).path("text").asText()));
        assertThat(text.toString()).isEqualTo(whole.path("choices").path(0).path("text").asText());
    }

    @Test
    void completions_tokenIdPrompt_countsIds() {
        JsonNode body = json(post(pod, "/v1/completions",
                "{\"model\":\"my-model\",\"prompt\":[1,2,3,4,5,6,7,8,9],\"max_tokens\":2}").body());
        assertThat(body.path("usage").path("prompt_tokens").asInt()).isEqualTo(9);
    }

    @Test
    void noMaxTokens_usesDefaultMaxTokens() {
        JsonNode body = json(post(pod, "/v1/completions", "{\"model\":\"my-model\",\"prompt\":\"hi\"}").body());
        assertThat(body.path("usage").path("completion_tokens").asInt()).isEqualTo(16);
        assertThat(body.path("usage").path("prompt_tokens").asInt()).isEqualTo(1);
    }

    @Test
    void xRequestId_becomesResponseId() {
        HttpResponse<String> response = post(pod, "/v1/chat/completions", chat("my-model", "hi", 1, false),
                "x-request-id", "req-42");
        assertThat(json(response.body()).path("id").asText()).isEqualTo("chatcmpl-req-42");
    }

    @Test
    void invalidRequests_answerVllmErrors() {
        HttpResponse<String> notJson = post(pod, "/v1/chat/completions", "{nope");
        assertThat(notJson.statusCode()).isEqualTo(400);
        JsonNode error = json(notJson.body()).path("error");
        assertThat(error.path("type").asText()).isEqualTo("BadRequestError");
        assertThat(error.path("code").asInt()).isEqualTo(400);
        assertThat(error.has("param")).isTrue();

        assertThat(post(pod, "/v1/chat/completions", "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}").statusCode())
                .isEqualTo(400);
        assertThat(post(pod, "/v1/chat/completions", "{\"model\":\"my-model\"}").statusCode()).isEqualTo(400);
        assertThat(post(pod, "/v1/completions", "{\"model\":\"my-model\"}").statusCode()).isEqualTo(400);
        assertThat(post(pod, "/v1/completions", "{\"model\":\"my-model\",\"prompt\":\"x\",\"max_tokens\":0}").statusCode())
                .isEqualTo(400);
        assertThat(post(pod, "/v1/completions",
                "{\"model\":\"my-model\",\"prompt\":\"x\",\"max_tokens\":2,\"min_tokens\":3}").statusCode()).isEqualTo(400);

        HttpResponse<String> unknownModel = post(pod, "/v1/chat/completions", chat("other", "x", 1, false));
        assertThat(unknownModel.statusCode()).isEqualTo(404);
        assertThat(json(unknownModel.body()).path("error").path("message").asText())
                .isEqualTo("The model `other` does not exist.");
    }

    @Test
    void modelsAndHealth_answer() {
        HttpResponse<String> models = get(pod, "/v1/models");
        assertThat(models.statusCode()).isEqualTo(200);
        assertThat(json(models.body()).path("data").path(0).path("id").asText()).isEqualTo("my-model");
        HttpResponse<String> health = get(pod, "/health");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).isEmpty();
        assertThat(get(pod, "/nowhere").statusCode()).isEqualTo(404);
    }

    @Test
    void recordedRequests_keepExactBodyAndHeaders() {
        String body = chat("my-model", "recorded", 1, false);
        post(pod, "/v1/chat/completions", body, "X-Custom", "yes");

        RecordedRequest recorded = pod.takeRequest("/v1/chat/completions");
        while (recorded != null && !recorded.body().equals(body)) {
            recorded = pod.takeRequest("/v1/chat/completions");
        }
        assertThat(recorded).isNotNull();
        assertThat(recorded.method()).isEqualTo("POST");
        assertThat(recorded.header("x-custom")).isEqualTo("yes");
        assertThat(recorded.json().path("messages").path(0).path("content").asText()).isEqualTo("recorded");
        assertThat(pod.recordedRequests()).contains(recorded);
    }

    @Test
    void completions_nChoicesIndexedWithTheirOwnTexts_usageCountsThemAll() {
        String prompt = "{\"model\":\"my-model\",\"prompt\":\"Once upon a time\",\"max_tokens\":6";
        JsonNode one = json(post(pod, "/v1/completions", prompt + "}").body());
        JsonNode three = json(post(pod, "/v1/completions", prompt + ",\"n\":3}").body());

        assertThat(three.path("choices")).hasSize(3);
        List<String> texts = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            JsonNode choice = three.path("choices").path(c);
            assertThat(choice.path("index").asInt()).isEqualTo(c);
            assertThat(choice.path("finish_reason").asText()).isEqualTo("length");
            texts.add(choice.path("text").asText());
        }
        assertThat(texts.get(0)).isEqualTo(one.path("choices").path(0).path("text").asText());
        assertThat(new HashSet<>(texts)).as("sampled completions differ").hasSizeGreaterThan(1);
        assertThat(three.path("usage").path("completion_tokens").asInt()).isEqualTo(18);
        assertThat(three.path("usage").path("prompt_tokens").asInt())
                .isEqualTo(one.path("usage").path("prompt_tokens").asInt());
    }

    @Test
    void chatStream_eachChoiceItsRoleAndTokens_theSameTextsAsAnswerWhole() {
        String body = "{\"model\":\"my-model\",\"messages\":[{\"role\":\"user\",\"content\":\"two of them\"}],"
                + "\"max_tokens\":4,\"n\":2";
        JsonNode whole = json(post(pod, "/v1/chat/completions", body + "}").body());
        List<String> events = sseData(post(pod, "/v1/chat/completions",
                body + ",\"stream\":true,\"stream_options\":{\"include_usage\":true}}").body());

        // two role chunks, 2 × 4 token chunks, the usage chunk, [DONE]
        assertThat(events).hasSize(12).last().isEqualTo("[DONE]");
        StringBuilder[] texts = {new StringBuilder(), new StringBuilder()};
        int[] roles = new int[2];
        int[] finished = new int[2];
        for (String event : events.subList(0, 10)) {
            JsonNode choice = json(event).path("choices").path(0);
            int index = choice.path("index").asInt();
            if (choice.path("delta").has("role")) {
                roles[index]++;
            } else {
                texts[index].append(choice.path("delta").path("content").asText());
            }
            if (choice.path("finish_reason").isTextual()) {
                finished[index]++;
            }
        }
        assertThat(roles).containsExactly(1, 1);
        assertThat(finished).containsExactly(1, 1);
        for (int c = 0; c < 2; c++) {
            assertThat(whole.path("choices").path(c).path("index").asInt()).isEqualTo(c);
            assertThat(texts[c].toString()).as("choice %d", c)
                    .isEqualTo(whole.path("choices").path(c).path("message").path("content").asText());
        }
        assertThat(json(events.get(10)).path("usage").path("completion_tokens").asInt()).isEqualTo(8);
        assertThat(whole.path("usage").path("completion_tokens").asInt()).isEqualTo(8);
    }

    @Test
    void nBelowOneOrNotAnInteger_400() {
        for (String n : List.of("0", "-1", "\"2\"", "1.5")) {
            var response = post(pod, "/v1/completions", "{\"model\":\"my-model\",\"prompt\":\"hi\",\"n\":" + n + "}");
            assertThat(response.statusCode()).as("n=%s", n).isEqualTo(400);
            assertThat(json(response.body()).path("message").asText() + json(response.body()).path("error")
                    .path("message").asText()).as("n=%s", n).contains("n must");
        }
    }
}
