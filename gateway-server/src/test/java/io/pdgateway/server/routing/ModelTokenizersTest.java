package io.pdgateway.server.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.core.cache.BlockHasher;
import io.pdgateway.core.config.PrefixTokenizerType;
import io.pdgateway.core.session.PromptFeatures;
import io.pdgateway.core.session.PromptNeeds;
import io.pdgateway.server.front.OpenAiRequestParser;
import io.pdgateway.sim.TextTokens;
import io.pdgateway.sim.api.ChatApi;
import io.pdgateway.sim.kvevents.BundledTokenizer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE=huggingface: the files a model's tokenizer comes from (start-up errors that name
 * the problem), and prompt blocks hashed over that tokenizer's ids — the same ids an engine reports in its events —
 * with the model's chat template applied to chat requests.
 */
class ModelTokenizersTest {
    private static final PromptNeeds HASHES = new PromptNeeds(true, true);
    private static final String PROMPT = "The gateway routes requests to prefill and decode pods. ".repeat(8);

    @TempDir
    Path dir;

    private Path tokenizerFile() throws Exception {
        Path file = dir.resolve("tokenizer.json");
        Files.writeString(file, BundledTokenizer.json());
        return file;
    }

    @Test
    void otherTokenizerTypes_ignoreTheFiles() {
        assertThat(ModelTokenizers.fromEnv(Map.of(ModelTokenizers.FILES_ENV, "m=/nowhere"),
                PrefixTokenizerType.CHARACTER)).isSameAs(ModelTokenizers.NONE);
    }

    @Test
    void huggingface_withoutFiles_missingFile_badEntry_stopStartUpWithTheReason() throws Exception {
        assertThatThrownBy(() -> ModelTokenizers.fromEnv(Map.of(), PrefixTokenizerType.HUGGINGFACE))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(ModelTokenizers.FILES_ENV);
        assertThatThrownBy(() -> ModelTokenizers.fromEnv(Map.of(ModelTokenizers.FILES_ENV,
                "m=" + dir.resolve("absent.json")), PrefixTokenizerType.HUGGINGFACE))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("absent.json")
                .hasMessageContaining("does not exist");
        Path garbage = dir.resolve("garbage.json");
        Files.writeString(garbage, "{\"model\": 3}");
        assertThatThrownBy(() -> ModelTokenizers.fromEnv(Map.of(ModelTokenizers.FILES_ENV, "m=" + garbage),
                PrefixTokenizerType.HUGGINGFACE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("garbage.json").hasMessageContaining("cannot be used");
        assertThatThrownBy(() -> ModelTokenizers.fromEnv(Map.of(ModelTokenizers.FILES_ENV, "just-a-path.json"),
                PrefixTokenizerType.HUGGINGFACE)).hasMessageContaining("expected model=/path");
        Path file = tokenizerFile();
        assertThatThrownBy(() -> ModelTokenizers.fromEnv(Map.of(ModelTokenizers.FILES_ENV, "m=" + file,
                ModelTokenizers.CHAT_TEMPLATES_ENV, "m=" + dir.resolve("no-config.json")),
                PrefixTokenizerType.HUGGINGFACE)).hasMessageContaining("no-config.json");
    }

    @Test
    void completionPrompt_hashesOverTheModelsTokenIds_itsBosFirst_unlessTheRequestTurnsSpecialTokensOff()
            throws Exception {
        PromptMeasurer measurer = withFileForM(PrefixTokenizerType.HUGGINGFACE);
        String prompt = PROMPT;

        PromptFeatures features = completion(measurer, "m", prompt);
        PromptFeatures plain = measurer.measure(OpenAiRequestParser.parse(OpenAiRequestParser.COMPLETIONS_PATH,
                ("{\"model\":\"m\",\"prompt\":\"" + prompt + "\",\"add_special_tokens\":false}")
                        .getBytes(StandardCharsets.UTF_8)), HASHES);

        int[] ids = BundledTokenizer.get().encodeAddingSpecialTokens(prompt);
        assertThat(ids[0]).as("as vLLM tokenizes a completion's prompt").isEqualTo(
                BundledTokenizer.get().tokenId("<|begin_of_text|>"));
        assertThat(features.promptTokens()).isEqualTo(ids.length);
        assertThat(features.prefixHashes())
                .isEqualTo(BlockHasher.chain(BlockHasher.seed("m"), ids, ids.length, 16)).isNotEmpty();
        int[] without = BundledTokenizer.get().encode(prompt);
        assertThat(plain.prefixHashes()).isEqualTo(BlockHasher.chain(BlockHasher.seed("m"), without, without.length,
                16));
    }

    @Test
    void chatRequest_isRenderedWithTheModelsTemplateBeforeTokenizing_otherModelsStayCharacter() throws Exception {
        Path config = dir.resolve("tokenizer_config.json");
        Files.writeString(config, "{\"chat_template\":\"{% for m in messages %}<|start_header_id|>{{ m.role }}"
                + "<|end_header_id|>{{ m.content }}<|eot_id|>{% endfor %}{% if add_generation_prompt %}"
                + "<|start_header_id|>assistant<|end_header_id|>{% endif %}\"}");
        ModelTokenizers models = ModelTokenizers.fromEnv(Map.of(ModelTokenizers.FILES_ENV, "m=" + tokenizerFile(),
                ModelTokenizers.CHAT_TEMPLATES_ENV, "m=" + config), PrefixTokenizerType.HUGGINGFACE);
        PromptMeasurer measurer = new PromptMeasurer(PrefixTokenizerType.HUGGINGFACE, 16, models);
        String content = "Summarise the routing policies of the gateway in detail please. ".repeat(4);

        PromptFeatures chat = measurer.measure(OpenAiRequestParser.parse(OpenAiRequestParser.CHAT_PATH,
                ("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + content + "\"}]}")
                        .getBytes(StandardCharsets.UTF_8)), HASHES);

        String rendered = "<|start_header_id|>user<|end_header_id|>" + content
                + "<|eot_id|><|start_header_id|>assistant<|end_header_id|>";
        int[] ids = BundledTokenizer.get().encode(rendered);
        assertThat(chat.prefixHashes()).isEqualTo(BlockHasher.chain(BlockHasher.seed("m"), ids, ids.length, 16));

        PromptFeatures other = completion(measurer, "other", content);
        assertThat(other.prefixHashes()).as("no file for this model: the character tokenizer")
                .isEqualTo(PromptMeasurerTest.characterBlocks("other", content));
    }

    @Test
    void remote_aModelWithAFileUsesIt_andWithoutOneMeasuresBytesUntilItsEnginesAnswer() throws Exception {
        PromptMeasurer measurer = withFileForM(PrefixTokenizerType.REMOTE);
        String prompt = PROMPT;

        PromptFeatures own = completion(measurer, "m", prompt);
        PromptFeatures other = completion(measurer, "other", prompt);

        int[] ids = BundledTokenizer.get().encodeAddingSpecialTokens(prompt);
        assertThat(own.prefixHashes()).isEqualTo(BlockHasher.chain(BlockHasher.seed("m"), ids, ids.length, 16));
        assertThat(other.prefixHashes()).as("what a request without the engine's answer is routed on")
                .isEqualTo(PromptMeasurerTest.characterBlocks("other", prompt));
    }

    @Test
    void aPromptOfTokenIds_isHashedAsTheIdsThemselves_aBatchIsNot() throws Exception {
        PromptMeasurer measurer = new PromptMeasurer(PrefixTokenizerType.REMOTE, 16,
                ModelTokenizers.fromEnv(Map.of(), PrefixTokenizerType.REMOTE));
        int[] ids = new int[40];
        StringBuilder json = new StringBuilder();
        for (int i = 0; i < ids.length; i++) {
            ids[i] = 1000 + i * 7;
            json.append(i == 0 ? "" : ",").append(ids[i]);
        }

        PromptFeatures single = measurer.measure(OpenAiRequestParser.parse(OpenAiRequestParser.COMPLETIONS_PATH,
                ("{\"model\":\"m\",\"prompt\":[" + json + "]}").getBytes(StandardCharsets.UTF_8)), HASHES);
        PromptFeatures batch = measurer.measure(OpenAiRequestParser.parse(OpenAiRequestParser.COMPLETIONS_PATH,
                ("{\"model\":\"m\",\"prompt\":[[" + json + "]]}").getBytes(StandardCharsets.UTF_8)), HASHES);

        assertThat(single.promptTokens()).isEqualTo(40);
        assertThat(single.prefixHashes()).isEqualTo(BlockHasher.chain(BlockHasher.seed("m"), ids, ids.length, 16))
                .hasSize(2);
        assertThat(batch.promptTokens()).isEqualTo(40);
        assertThat(batch.prefixHashes()).as("a batch: each prompt is computed on its own").isNotEqualTo(
                single.prefixHashes());
    }

    @Test
    void aChatRequestWithToolsAndItsOwnRenderingChoices_hashesAsATokenizingPodComputesIt() throws Exception {
        Path config = dir.resolve("tokenizer_config.json");
        Files.writeString(config, BundledTokenizer.configJson());
        PromptMeasurer measurer = new PromptMeasurer(PrefixTokenizerType.HUGGINGFACE, 16, ModelTokenizers.fromEnv(
                Map.of(ModelTokenizers.FILES_ENV, "m=" + tokenizerFile(), ModelTokenizers.CHAT_TEMPLATES_ENV,
                        "m=" + config), PrefixTokenizerType.HUGGINGFACE));
        String body = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\","
                + "\"text\":\"" + "Which pods hold the longest cached prefix of this prompt? ".repeat(3) + "\"}]},"
                + "{\"role\":\"assistant\",\"content\":\"Let me\"}],\"continue_final_message\":true,"
                + "\"add_generation_prompt\":false,\"tools\":[{\"type\":\"function\",\"function\":{\"name\":"
                + "\"cache_lookup\",\"parameters\":{\"type\":\"object\"}}}]}";

        PromptFeatures chat = measurer.measure(OpenAiRequestParser.parse(OpenAiRequestParser.CHAT_PATH,
                body.getBytes(StandardCharsets.UTF_8)), HASHES);

        long[] pods = new ChatApi().prompt(new ObjectMapper().readTree(body), 16,
                TextTokens.of(BundledTokenizer.get(), BundledTokenizer.chatTemplate())).ids();
        int[] ids = Arrays.stream(pods).mapToInt(id -> (int) id).toArray();
        assertThat(chat.prefixHashes()).as("the blocks a tokenizing engine-sim pod reports for the same request")
                .isEqualTo(BlockHasher.chain(BlockHasher.seed("m"), ids, ids.length, 16)).hasSizeGreaterThan(3);
    }

    @Test
    void likeTheEngines_aModelsFileWithItsChatTemplateOrItsEnginesAsked_notBytes() throws Exception {
        Path config = dir.resolve("tokenizer_config.json");
        Files.writeString(config, BundledTokenizer.configJson());
        Map<String, String> file = Map.of(ModelTokenizers.FILES_ENV, "m=" + tokenizerFile());
        Map<String, String> both = Map.of(ModelTokenizers.FILES_ENV, "m=" + tokenizerFile(),
                ModelTokenizers.CHAT_TEMPLATES_ENV, "m=" + config);

        assertThat(ModelTokenizers.fromEnv(both, PrefixTokenizerType.HUGGINGFACE).unlikeEngines("m")).isNull();
        assertThat(ModelTokenizers.fromEnv(file, PrefixTokenizerType.HUGGINGFACE).unlikeEngines("m"))
                .as("chat requests hash unlike the engines'").contains("chat template")
                .contains(ModelTokenizers.CHAT_TEMPLATES_ENV);
        assertThat(ModelTokenizers.fromEnv(file, PrefixTokenizerType.HUGGINGFACE).unlikeEngines("other"))
                .contains("AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE=remote");
        assertThat(ModelTokenizers.fromEnv(Map.of(), PrefixTokenizerType.REMOTE).unlikeEngines("other")).isNull();
        assertThat(ModelTokenizers.fromEnv(file, PrefixTokenizerType.CHARACTER).unlikeEngines("m"))
                .contains("does not tokenize");
    }

    /** A measurer of the tokenizer type with the bundled tokenizer as model m's file. */
    private PromptMeasurer withFileForM(PrefixTokenizerType type) throws Exception {
        return new PromptMeasurer(type, 16, ModelTokenizers.fromEnv(Map.of(ModelTokenizers.FILES_ENV,
                "m=" + tokenizerFile()), type));
    }

    private static PromptFeatures completion(PromptMeasurer measurer, String model, String prompt) throws Exception {
        return measurer.measure(OpenAiRequestParser.parse(OpenAiRequestParser.COMPLETIONS_PATH,
                ("{\"model\":\"" + model + "\",\"prompt\":\"" + prompt + "\"}").getBytes(StandardCharsets.UTF_8)),
                HASHES);
    }
}
