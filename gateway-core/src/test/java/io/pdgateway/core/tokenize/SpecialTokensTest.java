package io.pdgateway.core.tokenize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The special tokens a tokenizer.json's post-processor adds to a single text, as engines add them to a completion's
 * prompt: Llama 3's TemplateProcessing (BOS first), Llama 3.1's Sequence of ByteLevel and TemplateProcessing, a
 * template with a token after the text, BERT's CLS and SEP, none at all; and shapes that must be refused.
 */
class SpecialTokensTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LLAMA3 = "{\"type\":\"TemplateProcessing\",\"single\":[{\"SpecialToken\":{\"id\":"
            + "\"<|begin_of_text|>\",\"type_id\":0}},{\"Sequence\":{\"id\":\"A\",\"type_id\":0}}],\"pair\":[],"
            + "\"special_tokens\":{\"<|begin_of_text|>\":{\"id\":\"<|begin_of_text|>\",\"ids\":[128000],"
            + "\"tokens\":[\"<|begin_of_text|>\"]}}}";

    private static SpecialTokens of(String postProcessor) throws Exception {
        return SpecialTokens.of(JSON.readTree(postProcessor));
    }

    @Test
    void llama3sTemplate_andLlama31sSequence_putTheBosTokenFirst() throws Exception {
        assertThat(of(LLAMA3).around(new int[] {7, 8})).containsExactly(128000, 7, 8);
        assertThat(of("{\"type\":\"Sequence\",\"processors\":[{\"type\":\"ByteLevel\",\"add_prefix_space\":true,"
                + "\"trim_offsets\":false,\"use_regex\":true}," + LLAMA3 + "]}").around(new int[] {7}))
                .containsExactly(128000, 7);
    }

    @Test
    void aSequencesLaterStep_wrapsWhatTheEarlierOnesMade() throws Exception {
        String inner = "{\"type\":\"BertProcessing\",\"sep\":[\"[SEP]\",102],\"cls\":[\"[CLS]\",101]}";

        assertThat(of("{\"type\":\"Sequence\",\"processors\":[" + inner + "," + LLAMA3 + "]}").around(new int[] {5}))
                .as("as tokenizers runs a Sequence: each step over the encoding the previous one returned")
                .containsExactly(128000, 101, 5, 102);
    }

    @Test
    void tokensAfterTheText_andBertsClsAndSep() throws Exception {
        String eos = "{\"type\":\"TemplateProcessing\",\"single\":[{\"SpecialToken\":{\"id\":\"<s>\",\"type_id\":0}},"
                + "{\"Sequence\":{\"id\":\"A\",\"type_id\":0}},{\"SpecialToken\":{\"id\":\"</s>\",\"type_id\":0}}],"
                + "\"special_tokens\":{\"<s>\":{\"id\":\"<s>\",\"ids\":[1]},\"</s>\":{\"id\":\"</s>\",\"ids\":[2]}}}";

        assertThat(of(eos).around(new int[] {5})).containsExactly(1, 5, 2);
        assertThat(of("{\"type\":\"BertProcessing\",\"sep\":[\"[SEP]\",102],\"cls\":[\"[CLS]\",101]}")
                .around(new int[] {5})).containsExactly(101, 5, 102);
    }

    @Test
    void noPostProcessor_orAByteLevelOne_addsNothing() throws Exception {
        assertThat(of("null").around(new int[] {5})).containsExactly(5);
        assertThat(of("{\"type\":\"ByteLevel\",\"trim_offsets\":true}").around(new int[] {5})).containsExactly(5);
    }

    @Test
    void unknownShapes_areRefused() {
        assertThatThrownBy(() -> of("{\"type\":\"Mystery\"}")).isInstanceOf(TokenizerFormatException.class)
                .hasMessageContaining("post-processor Mystery");
        assertThatThrownBy(() -> of(LLAMA3.replace("\"ids\":[128000]", "\"ids\":[]")))
                .isInstanceOf(TokenizerFormatException.class).hasMessageContaining("<|begin_of_text|> has no ids");
    }

    @Test
    void theFixturesTokenizer_addsItsBosToACompletionsPrompt_notToAnEncodedText() throws Exception {
        BpeTokenizer tokenizer = BpeTokenizerTest.tokenizer();

        assertThat(tokenizer.encodeAddingSpecialTokens("Hello world"))
                .startsWith(tokenizer.tokenId("<|begin_of_text|>"))
                .endsWith(tokenizer.encode("Hello world")).hasSize(tokenizer.encode("Hello world").length + 1);
        assertThat(tokenizer.encode("Hello world")).doesNotContain(tokenizer.tokenId("<|begin_of_text|>"));
    }
}
