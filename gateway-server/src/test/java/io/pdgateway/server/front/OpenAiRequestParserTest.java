package io.pdgateway.server.front;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad requests are 400s naming the field; the prompt text is what upstream's bucketing counts. */
class OpenAiRequestParserTest {
    private static OpenAiRequest parse(String path, String body) throws OpenAiRequestParser.Rejected {
        return OpenAiRequestParser.parse(path, body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void chat_contentsJoinedBySpaces_structuredContentAsJson() throws Exception {
        OpenAiRequest request = parse("/v1/chat/completions", """
                {"model":"m","stream":true,"messages":[{"role":"system","content":"be brief"},
                 {"role":"user","content":[{"type":"text","text":"hi"}]}]}""");
        assertThat(request.model()).isEqualTo("m");
        assertThat(request.stream()).isTrue();
        assertThat(request.promptText()).isEqualTo("be brief [{\"type\":\"text\",\"text\":\"hi\"}]");
    }

    @Test
    void completions_tokenIdPrompt_countedDirectly() throws Exception {
        OpenAiRequest request = parse("/v1/completions", "{\"model\":\"m\",\"prompt\":[1,2,3,4]}");
        assertThat(request.promptTokenIds()).isEqualTo(4);
    }

    @Test
    void completions_batchOfTokenIdPrompts_allCounted_aListAmongThemRequired() throws Exception {
        OpenAiRequest request = parse("/v1/completions", "{\"model\":\"m\",\"prompt\":[[1,2],[3,4,5]]}");
        assertThat(request.promptTokenIds()).isEqualTo(5);
        assertThatThrownBy(() -> parse("/v1/completions", "{\"model\":\"m\",\"prompt\":[[1,2],3]}"))
                .hasMessageContaining("a list of such lists");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "not json          | /v1/chat/completions | {oops                                  | null",
        "array body        | /v1/chat/completions | []                                     | null",
        "no model          | /v1/chat/completions | {\"messages\":[{\"content\":\"x\"}]}   | model",
        "numeric model     | /v1/chat/completions | {\"model\":3,\"messages\":[{}]}        | model",
        "no messages       | /v1/chat/completions | {\"model\":\"m\"}                      | messages",
        "empty messages    | /v1/chat/completions | {\"model\":\"m\",\"messages\":[]}      | messages",
        "stream string     | /v1/chat/completions | {\"model\":\"m\",\"stream\":\"yes\",\"messages\":[{}]} | stream",
        "no prompt         | /v1/completions      | {\"model\":\"m\"}                      | prompt",
        "object prompt     | /v1/completions      | {\"model\":\"m\",\"prompt\":{}}        | prompt",
    })
    void invalid_400WithParam(String name, String path, String body, String param) {
        assertThatThrownBy(() -> parse(path, body))
                .isInstanceOfSatisfying(OpenAiRequestParser.Rejected.class, e -> {
                    assertThat(e.error().status()).isEqualTo(400);
                    assertThat(e.error().param()).isEqualTo("null".equals(param) ? null : param);
                    assertThat(e.error().type()).isEqualTo("invalid_request_error");
                });
    }

    /** Found by RequestBodyFuzzTest: after many parses, a key with a stray 0xFF byte was read as the key without it. */
    @Test
    void invalidUtf8InAKey_400BeforeTheJsonParserSeesIt() {
        String text = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}";
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        body[text.indexOf("role")] = (byte) 0xFF; // byte 27: the r of "role"
        assertThatThrownBy(() -> OpenAiRequestParser.parse("/v1/chat/completions", body))
                .isInstanceOfSatisfying(OpenAiRequestParser.Rejected.class, e -> {
                    assertThat(e.error().status()).isEqualTo(400);
                    assertThat(e.error().message()).contains("not valid UTF-8 (at byte 27)");
                });
    }

    /** Found by RequestBodyFuzzTest: an exponent beyond an int escaped the parser as a NumberFormatException. */
    @Test
    void floatWithAHugeExponent_400NotAnEscapedException() {
        assertThatThrownBy(() -> parse("/v1/chat/completions",
                "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}],\"t\":-5e0091722710186}"))
                .isInstanceOfSatisfying(OpenAiRequestParser.Rejected.class,
                        e -> assertThat(e.error().message()).contains("invalid JSON number"));
    }
}
