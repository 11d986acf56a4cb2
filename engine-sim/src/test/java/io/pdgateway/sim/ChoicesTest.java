package io.pdgateway.sim;

import static io.pdgateway.sim.SimTestSupport.FAST;
import static io.pdgateway.sim.SimTestSupport.await;
import static io.pdgateway.sim.SimTestSupport.json;
import static io.pdgateway.sim.SimTestSupport.post;
import static io.pdgateway.sim.SimTestSupport.sseData;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code n} sampled completions, as vLLM's OpenAI server answers them: n choices indexed 0 to n − 1, each its own
 * text (choice 0 the text of the same request without n), streamed as each choice's chunks (a chat stream opens every
 * choice with its role chunk) and counted together in the usage; n below 1 refused.
 */
class ChoicesTest {
    private static Vertx vertx;
    private static SimPod pod;

    @BeforeAll
    static void startPod() {
        vertx = Vertx.vertx();
        pod = await(SimPod.start(vertx, SimConfig.builder().host("127.0.0.5").timeScale(FAST).seed(7).build()));
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
