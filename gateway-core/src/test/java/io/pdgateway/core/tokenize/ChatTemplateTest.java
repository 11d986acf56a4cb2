package io.pdgateway.core.tokenize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Chat templates rendered the way transformers renders them for the engines: a template in Llama 3's format (header
 * tokens, a trimmed content, the BOS token once, the generation prompt), trim/lstrip of block tags, loop variables,
 * raise_exception, tokenizer_config.json parsing, and the rendered prompt tokenized into single special-token ids.
 */
class ChatTemplateTest {
    /** Llama 3's prompt format, written for this test: BOS once, a header per turn, trimmed content, end of turn. */
    private static final String LLAMA3_STYLE = """
            {{- bos_token }}
            {%- for m in messages %}
                {%- if m.role not in ['system', 'user', 'assistant'] %}
                    {{- raise_exception('unknown role ' ~ m.role) }}
                {%- endif %}
                {{- '<|start_header_id|>' ~ m['role'] ~ '<|end_header_id|>\\n\\n' }}
                {{- m['content'] | trim }}
                {{- '<|eot_id|>' }}
            {%- endfor %}
            {%- if add_generation_prompt %}
                {{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}
            {%- endif %}
            """;

    private static final List<Map<String, String>> MESSAGES = List.of(
            Map.of("role", "system", "content", "  Be brief. "), Map.of("role", "user", "content", "Hi!\n"));

    @Test
    void llama3Format_rendersAsTransformersWould() throws Exception {
        ChatTemplate template = new ChatTemplate(LLAMA3_STYLE, "<|begin_of_text|>", "<|end_of_text|>");

        String prompt = template.render(MESSAGES, true, Map.of());

        assertThat(prompt).isEqualTo("<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nBe brief."
                + "<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHi!<|eot_id|>"
                + "<|start_header_id|>assistant<|end_header_id|>\n\n");
        assertThat(template.render(MESSAGES, false, Map.of())).endsWith("Hi!<|eot_id|>");
    }

    @Test
    void renderedPrompt_tokenizesWithSingleSpecialTokenIds() throws Exception {
        BpeTokenizer tokenizer = BpeTokenizerTest.tokenizer();
        ChatTemplate template = new ChatTemplate(LLAMA3_STYLE, "<|begin_of_text|>", "<|end_of_text|>");

        int[] ids = tokenizer.encode(template.render(MESSAGES, true, Map.of()));

        assertThat(ids[0]).isEqualTo(tokenizer.tokenId("<|begin_of_text|>"));
        assertThat(ids[1]).isEqualTo(tokenizer.tokenId("<|start_header_id|>"));
        assertThat(java.util.Arrays.stream(ids).filter(id -> id == tokenizer.tokenId("<|eot_id|>")).count())
                .isEqualTo(2);
    }

    @Test
    void templateRaisingAnException_failsWithItsMessage() {
        ChatTemplate template = new ChatTemplate(LLAMA3_STYLE, "<s>", "</s>");

        assertThatThrownBy(() -> template.render(List.of(Map.of("role", "tool", "content", "x")), true, Map.of()))
                .isInstanceOf(TokenizerFormatException.class).hasMessageContaining("unknown role tool");
    }

    @Test
    void tokenizerConfig_stringOrNamedTemplates_andTokenObjects() throws Exception {
        String config = "{\"bos_token\":{\"content\":\"<B>\"},\"eos_token\":\"<E>\",\"chat_template\":["
                + "{\"name\":\"tool_use\",\"template\":\"tools\"},{\"name\":\"default\",\"template\":"
                + "\"{{ bos_token }}{% for m in messages %}[{{ m.content }}]{% endfor %}{{ eos_token }}\"}]}";

        ChatTemplate template = ChatTemplate.fromTokenizerConfig(config);

        assertThat(template.render(MESSAGES, false, Map.of())).isEqualTo("<B>[  Be brief. ][Hi!\n]<E>");
        assertThatThrownBy(() -> ChatTemplate.fromTokenizerConfig("{\"bos_token\":\"<s>\"}"))
                .hasMessageContaining("no chat_template");
    }
}
