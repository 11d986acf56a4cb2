package io.pdgateway.core.tokenize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Chat templates rendered the way transformers renders them for the engines: a template in Llama 3's format (header
 * tokens, a trimmed content, the BOS token once, the generation prompt), trim/lstrip of block tags, loop variables,
 * raise_exception, tokenizer_config.json parsing, and the rendered prompt tokenized into single special-token ids; and
 * a chat request's body rendered as vLLM renders it (content parts, tool calls, tools, kwargs, continuing a message).
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

    /** Shows every variable a request can set: tools, a kwarg, names, tool calls' parsed arguments, tool call ids. */
    private static final String SHOWS_EVERYTHING = "{{ bos_token }}{% if tools %}[tools:{% for t in tools %}"
            + "{{ t.function.name }};{% endfor %}]{% endif %}{% if greeting is defined %}[{{ greeting }}]{% endif %}"
            + "{% for m in messages %}<{{ m.role }}{% if m.name %}:{{ m.name }}{% endif %}>{{ m.content }}"
            + "{% for c in m.tool_calls or [] %}(call {{ c.function.name }} city={{ c.function.arguments.city }})"
            + "{% endfor %}{% if m.tool_call_id %}(for {{ m.tool_call_id }}){% endif %}</{{ m.role }}>{% endfor %}"
            + "{% if add_generation_prompt %}<assistant>{% endif %}";
    private static final ObjectMapper JSON = new ObjectMapper();

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

    @Test
    void aChatRequest_rendersAsVllmHandsItToTheTemplate() throws Exception {
        ChatTemplate template = new ChatTemplate(SHOWS_EVERYTHING, "<s>", "</s>");
        JsonNode request = JSON.readTree("""
                {"model":"m","messages":[
                  {"role":"system","content":null},
                  {"role":"user","name":"ann","content":[{"type":"text","text":"Weather"},
                    {"type":"image_url","image_url":{"url":"http://x/y.png"}},{"type":"text","text":"in Oslo?"}]},
                  {"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function",
                    "function":{"name":"weather","arguments":"{\\"city\\": \\"Oslo\\"}"}}]},
                  {"role":"tool","tool_call_id":"c1","content":[{"type":"text","text":"-3 C"}]}],
                 "tools":[{"type":"function","function":{"name":"weather"}}],
                 "chat_template_kwargs":{"greeting":"hej"}}""");

        assertThat(template.renderRequest(request)).isEqualTo("<s>[tools:weather;][hej]<system></system>"
                + "<user:ann>Weather\nin Oslo?</user><assistant>(call weather city=Oslo)</assistant>"
                + "<tool>-3 C(for c1)</tool><assistant>");
    }

    @Test
    void theGenerationPrompt_isTheRequestsOrItsKwargsChoice_andContinuingAMessageEndsAtItsContent() throws Exception {
        ChatTemplate template = new ChatTemplate(SHOWS_EVERYTHING, "<s>", "</s>");
        String messages = "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"},"
                + "{\"role\":\"assistant\",\"content\":\"Once upon \"}]";

        assertThat(template.renderRequest(JSON.readTree("{" + messages + ",\"add_generation_prompt\":false}")))
                .isEqualTo("<s><user>Hi</user><assistant>Once upon </assistant>");
        assertThat(template.renderRequest(JSON.readTree("{" + messages
                + ",\"chat_template_kwargs\":{\"add_generation_prompt\":false}}"))).endsWith("</assistant>");
        assertThat(template.renderRequest(JSON.readTree("{" + messages + ",\"add_generation_prompt\":false,"
                + "\"continue_final_message\":true}"))).isEqualTo("<s><user>Hi</user><assistant>Once upon ");
        assertThatThrownBy(() -> template.renderRequest(JSON.readTree("{" + messages
                + ",\"continue_final_message\":true}"))).isInstanceOf(TokenizerFormatException.class)
                .hasMessageContaining("cannot both be true");
        assertThatThrownBy(() -> template.renderRequest(JSON.readTree("{\"messages\":[\"hi\"]}")))
                .isInstanceOf(TokenizerFormatException.class).hasMessageContaining("with a role");
    }

    @Test
    void aRender_seesOnlyItsOwnRequest_notWhatAnEarlierOneOnTheSameThreadSetOrFailedAt() throws Exception {
        ChatTemplate template = new ChatTemplate("{% if greeting is defined %}{% set seen = greeting %}{% endif %}"
                + "{% if tools %}[tools]{% endif %}{{ seen | default('none') }}"
                + "{% if messages[0].role == 'tool' %}{{ raise_exception('no tools here') }}{% endif %}"
                + "{% for m in messages %}<{{ m.content }}>{% endfor %}", "<s>", "</s>");
        JsonNode first = JSON.readTree("{\"messages\":[{\"role\":\"user\",\"content\":\"a\"}],"
                + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\"}}],"
                + "\"chat_template_kwargs\":{\"greeting\":\"hej\"}}");
        JsonNode failing = JSON.readTree("{\"messages\":[{\"role\":\"tool\",\"content\":\"x\"}]}");
        JsonNode plain = JSON.readTree("{\"messages\":[{\"role\":\"user\",\"content\":\"b\"}]}");

        assertThat(template.renderRequest(first)).isEqualTo("[tools]hej<a>");
        assertThat(template.renderRequest(plain)).isEqualTo("none<b>");
        assertThatThrownBy(() -> template.renderRequest(failing)).hasMessageContaining("no tools here");
        assertThat(template.renderRequest(plain)).isEqualTo("none<b>");
        assertThat(template.renderRequest(first)).isEqualTo("[tools]hej<a>");
    }

    @Test
    void llama32sDateLine_isTodaysAsTransformersWritesIt_notTheTemplatesFallback() throws Exception {
        // Llama 3.2's own lines: the date only when strftime_now is defined (transformers defines it), else a fixed
        // one.
        ChatTemplate template = new ChatTemplate("{%- if not date_string is defined %}"
                + "{%- if strftime_now is defined %}{%- set date_string = strftime_now(\"%d %b %Y\") %}"
                + "{%- else %}{%- set date_string = \"26 Jul 2024\" %}{%- endif %}{%- endif %}"
                + "Today Date: {{ date_string }}", "<s>", "</s>");
        String before = PythonStrftime.format("%d %b %Y", ZonedDateTime.now());

        String rendered = template.render(MESSAGES, true, Map.of());

        assertThat(rendered).isIn("Today Date: " + before,
                "Today Date: " + PythonStrftime.format("%d %b %Y", ZonedDateTime.now()));
        assertThat(template.render(MESSAGES, true, Map.of("date_string", "01 Jan 2025")))
                .as("a client's chat_template_kwargs may pin it").isEqualTo("Today Date: 01 Jan 2025");
    }

    @Test
    void notBeforeATest_bindsAsInPython_soAGivenToolsListIsKept() throws Exception {
        // Llama 3.1's own lines: tools are none only when the request gave none.
        ChatTemplate template = new ChatTemplate("{%- if not tools is defined %}{%- set tools = none %}{%- endif %}"
                + "{%- if tools is not none %}[{{ tools | length }} tools]{%- endif %}"
                + "{%- if not messages[0]['role'] is string %}?{%- endif %}{{ messages[0]['content'] }}"
                + " not tools is defined", "<s>", "</s>");

        assertThat(template.render(MESSAGES, true, Map.of("tools", List.of(Map.of("name", "f")))))
                .isEqualTo("[1 tools]  Be brief.  not tools is defined");
        assertThat(template.render(MESSAGES, true, Map.of())).as("text outside tags is left as written")
                .isEqualTo("  Be brief.  not tools is defined");
    }

    @Test
    void tojson_writesAsPythonsJsonDumpsDoesForTransformers() throws Exception {
        ChatTemplate template = new ChatTemplate("{{ tools | tojson }}|{{ tools[0] | tojson(indent=2) }}|"
                + "{{ tools[0].function | tojson(sort_keys=true, separators=[',', ':']) }}|{{ [] | tojson(indent=4) }}",
                "<s>", "</s>");
        Map<String, Object> function = new LinkedHashMap<>();
        function.put("name", "météo");
        function.put("minimum", 0.5);
        function.put("tiny", 1e-5);
        function.put("list", List.of(1, true, "a\"b\n"));
        function.put("none", null);
        Map<String, Object> tool = new LinkedHashMap<>();
        tool.put("type", "function");
        tool.put("function", function);

        String rendered = template.render(MESSAGES, true, Map.of("tools", List.of(tool)));

        assertThat(rendered.split("\\|", -1)).containsExactly(
                "[{\"type\": \"function\", \"function\": {\"name\": \"météo\", \"minimum\": 0.5, \"tiny\": 1e-05, "
                        + "\"list\": [1, true, \"a\\\"b\\n\"], \"none\": null}}]",
                "{\n  \"type\": \"function\",\n  \"function\": {\n    \"name\": \"météo\",\n    \"minimum\": 0.5,\n"
                        + "    \"tiny\": 1e-05,\n    \"list\": [\n      1,\n      true,\n      \"a\\\"b\\n\"\n    ],\n"
                        + "    \"none\": null\n  }\n}",
                "{\"list\":[1,true,\"a\\\"b\\n\"],\"minimum\":0.5,\"name\":\"météo\",\"none\":null,\"tiny\":1e-05}",
                "[]");
        assertThat(PythonJson.pythonFloat(1e16)).isEqualTo("1e+16");
        assertThat(PythonJson.pythonFloat(123.0)).isEqualTo("123.0");
        assertThat(PythonJson.pythonFloat(-2.5e-7)).isEqualTo("-2.5e-07");
    }

    @Test
    void pythonsStrftime_inTheCLocale() {
        ZonedDateTime time = ZonedDateTime.of(2026, 3, 7, 14, 5, 9, 0, ZoneOffset.UTC);

        assertThat(PythonStrftime.format("%d %b %Y", time)).isEqualTo("07 Mar 2026");
        assertThat(PythonStrftime.format("%A, %B %e %y %H:%M:%S %I%p day %j %% %Q", time))
                .isEqualTo("Saturday, March  7 26 14:05:09 02PM day 066 % %Q");
    }

    @Test
    void aTemplateWithASyntaxError_failsEveryRender_withoutFailingToLoad() throws Exception {
        ChatTemplate broken = new ChatTemplate("{% for m in messages %}{{ m.content }}", "<s>", "</s>");

        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> broken.render(MESSAGES, true, Map.of()))
                    .isInstanceOf(TokenizerFormatException.class).hasMessageContaining("chat template failed");
        }
    }

    @Test
    void oneTemplateRendersConcurrently_asItRendersAlone() throws Exception {
        ChatTemplate template = new ChatTemplate(SHOWS_EVERYTHING, "<s>", "</s>");
        List<JsonNode> requests = new ArrayList<>();
        List<String> alone = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            requests.add(JSON.readTree("{\"messages\":[{\"role\":\"user\",\"name\":\"u" + i + "\",\"content\":\""
                    + "question ".repeat(i) + "\"}],\"chat_template_kwargs\":{\"greeting\":\"g" + i + "\"}}"));
            alone.add(template.renderRequest(requests.get(i)));
        }
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> mismatches = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int offset = t;
                mismatches.add(threads.submit(() -> {
                    int wrong = 0;
                    for (int i = 0; i < 2_000; i++) {
                        int r = (i + offset) % requests.size();
                        wrong += template.renderRequest(requests.get(r)).equals(alone.get(r)) ? 0 : 1;
                    }
                    return wrong;
                }));
            }
            for (Future<Integer> wrong : mismatches) {
                assertThat(wrong.get(60, TimeUnit.SECONDS)).isZero();
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
