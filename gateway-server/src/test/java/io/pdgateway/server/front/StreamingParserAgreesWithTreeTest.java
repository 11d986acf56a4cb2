package io.pdgateway.server.front;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The streaming request parser against the tree parser it replaced ({@link TreeParserOracle}): over the fuzz corpus
 * and hand-picked bodies (unicode, escapes, exponents, duplicate keys, token ids, structured contents, KV-location
 * fields), both accept the same bodies and read the same model, stream flag, prompt text and length, and token-id
 * count, and both refuse the same bodies with the same status, code, parameter and message.
 */
class StreamingParserAgreesWithTreeTest {
    private static final int CASES = 6_000;
    private static final long SEED = 20_261_202L;

    private static final List<String> CHAT_BODIES = List.of(
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"h\\u00e9llo \\ud83d\\ude00 \\\"q\\\" \\n\"}]}",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"caf\u00e9 \u4e2d\u6587 \uD83D\uDE00\"},{\"content\":null},"
                    + "{\"content\":\"\"},{\"content\":\"x\"}]}",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"\"},{\"content\":\"after empty\"}]}",
            // Escapes the prompt's bytes decode: lone, doubled and reversed surrogates, NUL, every short escape, and
            // escapes at and across eight-byte boundaries.
            "{\"model\":\"m\",\"messages\":[{\"content\":\"a\\ud800b \\ud83d\\ud83d\\ude00 \\ude00\\ud83d "
                    + "\\u0000\\b\\f\\r\\t\\/\\\\ \\u07ff\\u0800\\uffff 1234567\\\"12345678\\n\\ud83d\"}]}",
            "{\"model\":\"m\",\"messages\":[{\"content\":[1]},{\"content\":\"caf\u00e9\",\"content\":[\"x\"]},"
                    + "{\"content\":[2],\"content\":\"after structured\"}]}",
            "{\"model\":\"m\",\"messages\":[{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"n\":1.50e3}]}",
            "{\"model\":\"m\",\"messages\":[{\"content\":1.50},{\"content\":true},{\"content\":12345678901234567890}]}",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"first\",\"content\":\"second\"}]}",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"first\",\"content\":null}]}",
            "{\"model\":\"a\",\"model\":\"b\",\"messages\":[{\"content\":\"x\"}]}",
            "{\"model\":\"m\",\"messages\":7,\"messages\":[{\"content\":\"the last counts\"}]}",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}],\"messages\":[]}",
            "{\"model\":\"m\",\"messages\":[1,{\"content\":\"x\"}]}",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}],\"temperature\":0.70,\"seed\":9007199254740993}",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}],\"t\":1e400,\"u\":-0.0,\"v\":1E-7}",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}],\"t\":-5e0091722710186}",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}]} {}",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}]}  \n",
            "{\"model\":\"m\",\"stream\":null,\"messages\":[{\"content\":\"x\"}]}",
            "{\"model\":\"m\",\"stream\":\"true\",\"messages\":[{\"content\":\"x\"}]}",
            "{\"model\":\" \",\"messages\":[{\"content\":\"x\"}]}",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}],\"kv_transfer_params\":{\"remote_host\":\"10.9.9.9\"},"
                    + "\"bootstrap_room\":5,\"bootstrap_room\":6}",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"tab\there\"}]}",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"bad \\x escape\"}]}",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}],\"other\":\"bad \\q escape\"}",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}],\"other\":\"raw\u0001control\"}",
            "[{\"model\":\"m\"}]",
            "[1,",
            "",
            "  ",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}]");
    private static final List<String> COMPLETION_BODIES = List.of(
            "{\"model\":\"m\",\"prompt\":\"plain \\u00e9\"}",
            "{\"model\":\"m\",\"prompt\":[1,2,3,\"mixed after a number\"]}",
            "{\"model\":\"m\",\"prompt\":[1.5,2]}",
            "{\"model\":\"m\",\"prompt\":[]}",
            "{\"model\":\"m\",\"prompt\":[\"a\",\"\",\"b\"]}",
            "{\"model\":\"m\",\"prompt\":[\"a\",2]}",
            "{\"model\":\"m\",\"prompt\":[[1,2],3]}",
            "{\"model\":\"m\",\"prompt\":[[1,2],[3,4,5]]}",
            "{\"model\":\"m\",\"prompt\":[[1,2],[],[\"x\",{\"y\":[1]}]]}",
            "{\"model\":\"m\",\"prompt\":[[1,2],\"a\"]}",
            "{\"model\":\"m\",\"prompt\":null}",
            "{\"model\":\"m\",\"prompt\":{}}",
            "{\"model\":\"m\",\"prompt\":\"a\",\"prompt\":[7,8]}",
            "{\"model\":\"m\",\"prompt\":[1,2e99999999999]}");

    @Test
    void handPickedBodies() {
        for (String body : CHAT_BODIES) {
            agree(OpenAiRequestParser.CHAT_PATH, body.getBytes(StandardCharsets.UTF_8));
        }
        for (String body : COMPLETION_BODIES) {
            agree(OpenAiRequestParser.COMPLETIONS_PATH, body.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void fuzzedBodies() {
        JsonFuzzer fuzzer = new JsonFuzzer(SEED);
        for (int i = 0; i < CASES; i++) {
            byte[] body = fuzzer.next();
            String path = i % 3 == 0 ? OpenAiRequestParser.COMPLETIONS_PATH : OpenAiRequestParser.CHAT_PATH;
            try {
                agree(path, body);
            } catch (AssertionError | RuntimeException e) {
                fail("case " + i + ", " + path + ", body (base64) " + Base64.getEncoder().encodeToString(body) + ": "
                        + new String(body, StandardCharsets.UTF_8), e);
            }
        }
    }

    private static void agree(String path, byte[] body) {
        TreeParserOracle.Outcome tree = TreeParserOracle.parse(path, body);
        OpenAiRequest request;
        try {
            request = OpenAiRequestParser.parse(path, body);
        } catch (OpenAiRequestParser.Rejected e) {
            String text = new String(body, StandardCharsets.UTF_8);
            assertThat(tree.error()).as("the tree parser refused it too: " + text).isNotNull();
            assertThat(e.error().status()).as(text).isEqualTo(tree.error().status());
            assertThat(e.error().code()).as(text).isEqualTo(tree.error().code());
            assertThat(e.error().param()).as(text).isEqualTo(tree.error().param());
            assertThat(e.error().message()).as(text).isEqualTo(tree.error().message());
            return;
        }
        String text = new String(body, StandardCharsets.UTF_8);
        assertThat(tree.error()).as("the tree parser accepted it too: " + text).isNull();
        assertThat(request.model()).as(text).isEqualTo(tree.model());
        assertThat(request.stream()).as(text).isEqualTo(tree.stream());
        assertThat(request.promptTokenIds()).as(text).isEqualTo(tree.promptTokenIds());
        assertThat(request.promptText()).as(text).isEqualTo(tree.promptText());
        assertThat(request.promptLength()).as(text).isEqualTo(tree.promptText().length());
        PromptUtf8 utf8 = request.promptUtf8();
        assertThat(Arrays.copyOf(utf8.bytes(), utf8.length())).as("the prompt's bytes: " + text)
                .isEqualTo(tree.promptText().getBytes(StandardCharsets.UTF_8));
        if (!tree.kvLocation()) {
            assertThat(request.raw()).as("forwarded as sent: " + text).isSameAs(body);
        }
    }
}
