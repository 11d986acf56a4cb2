package io.pdgateway.server.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.core.config.PrefixTokenizerType;
import io.pdgateway.server.front.OpenAiRequestParser;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE=remote: its settings (start-up errors that name the setting), and the
 * {@code /tokenize} body a client's request becomes, copied from the client's bytes.
 */
class RemoteTokenizerSettingsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void remote_needsNoFile_andDefaultsToTheModelsOwnPods() {
        ModelTokenizers tokenizers = ModelTokenizers.fromEnv(Map.of(), PrefixTokenizerType.REMOTE);

        assertThat(tokenizers.remote().endpoint()).as("no service named: the pods are asked").isNull();
        assertThat(tokenizers.remote().timeoutMs()).isEqualTo(RemoteTokenizerSettings.DEFAULT_TIMEOUT_MS);
        assertThat(ModelTokenizers.fromEnv(Map.of(RemoteTokenizerSettings.ENDPOINT_ENV, "not read"),
                PrefixTokenizerType.TIKTOKEN).remote()).as("another type asks no engine").isNull();
    }

    @Test
    void anEndpoint_isAServersAddress() {
        RemoteTokenizerSettings settings = RemoteTokenizerSettings.fromEnv(Map.of(
                RemoteTokenizerSettings.ENDPOINT_ENV, "http://tokenizer.llm.svc:8000",
                RemoteTokenizerSettings.TIMEOUT_MS_ENV, "75"));

        assertThat(settings.endpoint())
                .isEqualTo(new RemoteTokenizerSettings.Endpoint("tokenizer.llm.svc", 8000, false));
        assertThat(settings.timeoutMs()).isEqualTo(75);
        assertThat(RemoteTokenizerSettings.fromEnv(Map.of(RemoteTokenizerSettings.ENDPOINT_ENV, "https://tok/"))
                .endpoint()).isEqualTo(new RemoteTokenizerSettings.Endpoint("tok", 443, true));
    }

    @Test
    void badSettings_stopStartUpNamingTheSetting() {
        for (String bad : new String[] {"tokenizer:8000", "ftp://tok:21", "http://tok:8000/tokenize", "http://"}) {
            assertThatThrownBy(() -> RemoteTokenizerSettings.fromEnv(Map.of(RemoteTokenizerSettings.ENDPOINT_ENV, bad)))
                    .as(bad).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(RemoteTokenizerSettings.ENDPOINT_ENV);
        }
        for (String bad : new String[] {"0", "-5", "fast", "600000"}) {
            assertThatThrownBy(() -> RemoteTokenizerSettings.fromEnv(Map.of(RemoteTokenizerSettings.TIMEOUT_MS_ENV,
                    bad))).as(bad).hasMessageContaining(RemoteTokenizerSettings.TIMEOUT_MS_ENV);
        }
    }

    @Test
    void aChatRequest_asksWithItsMessagesAndWhatChangesTheirRendering() throws Exception {
        JsonNode body = tokenizeBody(OpenAiRequestParser.CHAT_PATH, "{\"model\":\"m\",\"stream\":true,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi \\\"there\\\"\"}],"
                + "\"tools\":[{\"type\":\"function\","
                + "\"function\":{\"name\":\"f\"}}],\"chat_template_kwargs\":{\"enable_thinking\":false},"
                + "\"max_tokens\":5}", true);

        assertThat(body.toString()).isEqualTo("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":"
                + "\"hi \\\"there\\\"\"}],\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\"}}],"
                + "\"chat_template_kwargs\":{\"enable_thinking\":false},\"add_generation_prompt\":true,"
                + "\"add_special_tokens\":false}");
        assertThat(tokenizeBody(OpenAiRequestParser.CHAT_PATH, "{\"model\":\"m\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"x\"}],\"add_generation_prompt\":false}", true).get("add_generation_prompt")
                .asBoolean()).as("the client's own choice").isFalse();
        assertThat(tokenizeBody(OpenAiRequestParser.CHAT_PATH, "{\"model\":\"m\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"x\"}],\"add_special_tokens\":true,\"documents\":[{\"text\":\"d\"}]}", true)
                .toString()).as("the client's own choices").contains("\"add_special_tokens\":true")
                .contains("\"documents\":[{\"text\":\"d\"}]");
        assertThat(tokenizeBody(OpenAiRequestParser.COMPLETIONS_PATH, "{\"model\":\"m\",\"prompt\":\"x\","
                + "\"add_special_tokens\":false}", false).get("add_special_tokens").asBoolean()).isFalse();
    }

    @Test
    void aCompletion_asksWithItsPromptString_andABatchAsksNothing() throws Exception {
        assertThat(tokenizeBody(OpenAiRequestParser.COMPLETIONS_PATH,
                "{\"model\":\"m\",\"prompt\":\"caf\\u00e9 \\n menu\",\"max_tokens\":5}", false).toString())
                .isEqualTo("{\"model\":\"m\",\"prompt\":\"café \\n menu\",\"add_special_tokens\":true}");
        assertThat(TokenizeBody.of(OpenAiRequestParser.parse(OpenAiRequestParser.COMPLETIONS_PATH,
                "{\"model\":\"m\",\"prompt\":[\"one \",\"two\"]}".getBytes(StandardCharsets.UTF_8)), false))
                .as("a batch: vLLM computes each prompt on its own").isNull();
    }

    private static JsonNode tokenizeBody(String path, String body, boolean chat) throws Exception {
        return JSON.readTree(TokenizeBody.of(OpenAiRequestParser.parse(path, body.getBytes(StandardCharsets.UTF_8)),
                chat).getBytes());
    }
}
