package io.pdgateway.core.tokenize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The byte-level BPE against Hugging Face's own tokenizers library: tokenize/expected.json holds what the library
 * made of each text with tokenize/tokenizer.json (both made by tokenize/make_tokenizer.py): Llama 3's pre-tokenizer
 * regex, ignore_merges, special tokens in the text, multi-byte characters, Unicode whitespace. Round trips, and the
 * shapes of tokenizer.json that must be refused.
 */
class BpeTokenizerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    record Case(String text, int[] ids) {
        @Override
        public String toString() {
            return text.length() > 40 ? text.substring(0, 40) + "..." : text;
        }
    }

    static BpeTokenizer tokenizer() throws Exception {
        return HfTokenizerJson.parse(resource("tokenizer.json"));
    }

    static Stream<Case> expected() throws Exception {
        List<Case> cases = new ArrayList<>();
        for (JsonNode c : JSON.readTree(resource("expected.json"))) {
            int[] ids = new int[c.get("ids").size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = c.get("ids").get(i).asInt();
            }
            cases.add(new Case(c.get("text").asText(), ids));
        }
        return cases.stream();
    }

    @ParameterizedTest
    @MethodSource("expected")
    void encode_matchesHuggingFace_andDecodesBack(Case c) throws Exception {
        BpeTokenizer tokenizer = tokenizer();

        assertThat(tokenizer.encode(c.text())).containsExactly(c.ids());
        assertThat(tokenizer.decode(c.ids())).isEqualTo(c.text());
    }

    @Test
    void specialTokens_areSingleIds() throws Exception {
        BpeTokenizer tokenizer = tokenizer();
        int eot = tokenizer.tokenId("<|eot_id|>");

        assertThat(eot).isPositive();
        assertThat(tokenizer.encode("a<|eot_id|>b")).contains(eot);
        assertThat(tokenizer.vocabularySize()).isEqualTo(656 + 5);
    }

    @Test
    void unsupportedShapes_areRefusedByName() {
        assertThatThrownBy(() -> HfTokenizerJson.parse("{\"model\":{\"type\":\"Unigram\",\"vocab\":[]}}"))
                .isInstanceOf(TokenizerFormatException.class).hasMessageContaining("Unigram");
        assertThatThrownBy(() -> HfTokenizerJson.parse("{\"model\":{\"type\":\"BPE\",\"vocab\":{},\"merges\":[],"
                + "\"byte_fallback\":true}}")).hasMessageContaining("byte_fallback");
        assertThatThrownBy(() -> HfTokenizerJson.parse("{\"model\":{\"type\":\"BPE\",\"vocab\":{},\"merges\":[]},"
                + "\"pre_tokenizer\":{\"type\":\"Metaspace\"}}")).hasMessageContaining("Metaspace");
        assertThatThrownBy(() -> HfTokenizerJson.parse("{\"model\":{\"type\":\"BPE\",\"vocab\":{},\"merges\":[]},"
                + "\"normalizer\":{\"type\":\"Lowercase\"},\"pre_tokenizer\":{\"type\":\"ByteLevel\"}}"))
                .hasMessageContaining("Lowercase");
        assertThatThrownBy(() -> HfTokenizerJson.parse("{not json")).hasMessageContaining("not JSON");
    }

    static String resource(String name) throws IOException {
        try (InputStream in = BpeTokenizerTest.class.getResourceAsStream("/tokenize/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
