package io.pdgateway.server.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.cache.BlockHasher;
import io.pdgateway.core.config.PrefixTokenizerType;
import io.pdgateway.core.session.PromptFeatures;
import io.pdgateway.core.session.PromptNeeds;
import io.pdgateway.server.front.OpenAiRequest;
import io.pdgateway.server.front.OpenAiRequestParser;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The character tokenizer (upstream's default): a prompt's blocks are its text's UTF-8 bytes, four to a token, sixteen
 * tokens to a block, the text being the message contents joined by spaces. The measurer reads those bytes from the
 * body; here they come the long way, from the text, so the two must agree on every escape and join.
 */
class PromptMeasurerTest {
    private static final int B = BlockHasher.DEFAULT_BLOCK_TOKENS;
    private static final PromptMeasurer CHARACTER = new PromptMeasurer(PrefixTokenizerType.CHARACTER, B);

    @Test
    void chatPrompt_blocksOfItsTextsBytes() throws Exception {
        String first = "You are a helpful assistant. Answer in French, caf\u00e9 style: ".repeat(3);
        String second = "Why is the sky blue? \uD83D\uDE00 ".repeat(9);
        OpenAiRequest request = chat("[{\"role\":\"system\",\"content\":\"" + first + "\"},"
                + "{\"role\":\"user\",\"content\":\"" + second.replace("\uD83D\uDE00", "\\ud83d\\ude00") + "\"}]");

        PromptFeatures features = CHARACTER.measure(request, new PromptNeeds(false, true));

        assertThat(features.prefixHashes()).isEqualTo(characterBlocks("m", first + " " + second));
        assertThat(features.prefixHashes()).hasSize((first + " " + second).getBytes(StandardCharsets.UTF_8).length
                / 4 / B);
    }

    @Test
    void escapesAndAStructuredContent_hashAsTheTextTheyStandFor() throws Exception {
        OpenAiRequest request = chat("[{\"role\":\"user\",\"content\":\"line one\\nline \\\"two\\\"\\t\\u00e9\\u4e2d "
                + "\\ud800 alone, then more words to fill a block or two of sixteen tokens\"},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"structured, as its JSON\"}]}]");

        PromptFeatures features = CHARACTER.measure(request, new PromptNeeds(false, true));

        assertThat(features.prefixHashes()).hasSizeGreaterThan(1)
                .isEqualTo(characterBlocks("m", request.promptText()));
    }

    @Test
    void longCompletionPrompt_everyFullBlock() throws Exception {
        StringBuilder prompt = new StringBuilder();
        for (int i = 0; prompt.length() < 200_000; i++) {
            prompt.append("word").append(i % 97).append(i % 50 == 0 ? " \\\"q\\\" caf\u00e9 " : " ");
        }
        OpenAiRequest request = OpenAiRequestParser.parse(OpenAiRequestParser.COMPLETIONS_PATH,
                ("{\"model\":\"big\",\"prompt\":[\"" + prompt + "\",\"tail\"]}").getBytes(StandardCharsets.UTF_8));

        PromptFeatures features = CHARACTER.measure(request, new PromptNeeds(true, true));

        assertThat(features.prefixHashes()).isEqualTo(characterBlocks("big", request.promptText()));
        assertThat(features.promptTokens()).as("the real count when asked: cl100k's")
                .isEqualTo(PromptTokenizer.count(request.promptText()));
    }

    @Test
    void tokenIdPrompt_countsItsIdsAndHasNoTextBlocks() throws Exception {
        OpenAiRequest request = OpenAiRequestParser.parse(OpenAiRequestParser.COMPLETIONS_PATH,
                "{\"model\":\"m\",\"prompt\":[1,2,3,4,5]}".getBytes(StandardCharsets.UTF_8));

        PromptFeatures features = CHARACTER.measure(request, new PromptNeeds(true, true));

        assertThat(features.promptTokens()).isEqualTo(5);
        assertThat(features.prefixHashes()).isEmpty();
    }

    private static OpenAiRequest chat(String messages) throws OpenAiRequestParser.Rejected {
        return OpenAiRequestParser.parse(OpenAiRequestParser.CHAT_PATH,
                ("{\"model\":\"m\",\"messages\":" + messages + "}").getBytes(StandardCharsets.UTF_8));
    }

    /** The text's block hashes, the long way: its UTF-8 bytes, four to a big-endian token. */
    static long[] characterBlocks(String model, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        int[] tokens = new int[bytes.length / 4];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = (bytes[4 * i] & 0xff) << 24 | (bytes[4 * i + 1] & 0xff) << 16 | (bytes[4 * i + 2] & 0xff) << 8
                    | bytes[4 * i + 3] & 0xff;
        }
        return BlockHasher.chain(BlockHasher.seed(model), tokens, tokens.length, B);
    }
}
