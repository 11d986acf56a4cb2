package io.pdgateway.server.front;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.TopLevelJson;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The front's one-pass scan accepts only bodies the parser's scan accepts, and reads from them exactly what that scan
 * reads (model, stream, KV-location fields, the prompt's length and parts, where each top-level member lies); it gives
 * up on everything else, which the parser then words. And it does take the bodies clients send, or it saves nothing.
 */
class FastBodyScanTest {
    private static final int CASES = 20_000;
    private static final long SEED = 20_261_203L;
    private static final List<String> EDITED = List.of("model", "stream", "messages", "prompt", "max_tokens",
            "kv_transfer_params", "tools", "k0");

    /** Bodies as SDKs send them: the fast path must take every one. */
    private static final List<String> USUAL_CHAT = List.of(
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
            "{\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"messages\":[{\"role\":\"system\",\"content\":\"You "
                    + "are helpful.\"},{\"role\":\"user\",\"content\":\"caf\u00e9 \u4e16\u754c \uD83D\uDE00 "
                    + "\\\"q\\\" \\n \\u00e9 \\ud83d\\ude00\"},{\"role\":\"assistant\",\"content\":null,"
                    + "\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"f\","
                    + "\"arguments\":\"{\\\"a\\\":1}\"}}]}],\"max_tokens\":32,\"stream\":true,"
                    + "\"stream_options\":{\"include_usage\":true},\"temperature\":0.70,\"top_p\":1e-3,"
                    + "\"seed\":-42,\"stop\":[\"\\n\\n\"],\"logit_bias\":{\"50256\":-100}}",
            " \n{ \"model\" : \"m\" ,\r\n\t\"messages\" : [ { \"content\" : \"x\" } , { } ] ,"
                    + " \"stream\" : false , \"kv_transfer_params\" : { \"do_remote_decode\" : true } } \n",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"first\",\"content\":\"second\"},{\"content\":\"a\","
                    + "\"content\":null}],\"tools\":[{\"type\":\"function\",\"function\":{\"parameters\":"
                    + "{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"array\",\"items\":{\"type\":\"number\","
                    + "\"minimum\":0.5E+2}}}}}}]}");
    /** Content as parts (vision and tool-calling SDKs), and contents that are other values: read as their JSON. */
    private static final List<String> STRUCTURED_CHAT = List.of(
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"what "
                    + "is \\u00e9 here?\"},{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,"
                    + "iVBORw0KGgo=\",\"detail\":\"low\"}}]}],\"max_tokens\":16}",
            "{\"model\":\"m\",\"messages\":[{\"content\" : [ 1.50 , 2e3, -0, true ] },{\"content\":1.50},"
                    + "{\"content\":12345678901234567890},{\"content\":\"x\",\"content\":{\"a\" : [ ] }},"
                    + "{\"content\":{\"b\":1},\"content\":null},{\"content\":false}]}");
    private static final List<String> USUAL_COMPLETIONS = List.of(
            "{\"model\":\"m\",\"prompt\":\"Once upon a time\",\"max_tokens\":16}",
            "{\"model\":\"m\",\"prompt\":[\"a\",\"\",\"b \\u4e16\"],\"echo\":false}",
            "{\"model\":\"m\",\"prompt\":[1,2,3,-0,4.5e1],\"stream\":null}",
            "{\"model\":\"m\",\"prompt\":[]}");

    @Test
    void usualBodies_takenInOnePass_readAsTheParserReadsThem() {
        for (String body : USUAL_CHAT) {
            assertThat(agree(true, body.getBytes(StandardCharsets.UTF_8))).as(body).isTrue();
        }
        for (String body : STRUCTURED_CHAT) {
            assertThat(agree(true, body.getBytes(StandardCharsets.UTF_8))).as(body).isTrue();
        }
        for (String body : USUAL_COMPLETIONS) {
            assertThat(agree(false, body.getBytes(StandardCharsets.UTF_8))).as(body).isTrue();
        }
    }

    @Test
    void unusualBodies_leftToTheParser() {
        for (String body : List.of(
                "{\"mod\\u0065l\":\"m\",\"messages\":[{\"content\":\"x\"}]}",
                "{\"model\":\"m\\u0000\",\"messages\":[{\"content\":\"x\"}]}",
                "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}],\"t\":1e1234567}",
                "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}],\"t\":" + "1".repeat(70) + "}",
                "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}],\"deep\":" + "[".repeat(70) + "]".repeat(70) + "}",
                "\ufeff{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}]}",
                "{\"model\":\"m\",\"messages\":[]}", "{}")) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            assertThat(FastBodyScan.scan(bytes, true)).as(body).isNull();
        }
    }

    @Test
    void invalidNumbersAndLiterals_leftToTheParser() {
        for (String value : List.of("1e", "1e+", "1.", "-", "01", "+1", ".5", "1.e3", "--1", "0x10", "1e5.5",
                "Infinity", "NaN", "tru", "nul", "falsey", "truex", "1true", "\"a\"\"b\"")) {
            String body = "{\"model\":\"m\",\"messages\":[{\"content\":\"x\"}],\"t\":" + value + "}";
            assertThat(FastBodyScan.scan(body.getBytes(StandardCharsets.UTF_8), true)).as(body).isNull();
        }
    }

    @Test
    void rawControlCharacterInAString_leftToTheParser_whereverItFallsInAWord() {
        for (char control : new char[] {'\t', '\n', '\u0000', '\u001f'}) {
            for (int at = 0; at < 16; at++) {
                String body = "{\"model\":\"m\",\"messages\":[{\"content\":\"" + "x".repeat(at) + control
                        + "y".repeat(20) + "\"}]}";
                assertThat(FastBodyScan.scan(body.getBytes(StandardCharsets.UTF_8), true)).as("%d at %d", (int) control,
                        at).isNull();
            }
        }
    }

    @Test
    void fuzzedBodies_neverAcceptedWhereTheParserRefuses_andReadAlike() {
        JsonFuzzer fuzzer = new JsonFuzzer(SEED);
        int parserAccepted = 0;
        int fastAccepted = 0;
        for (int i = 0; i < CASES; i++) {
            byte[] body = fuzzer.next();
            boolean chat = i % 3 != 0;
            try {
                boolean fast = agree(chat, body);
                fastAccepted += fast ? 1 : 0;
                parserAccepted += parses(chat, body) ? 1 : 0;
            } catch (AssertionError | RuntimeException e) {
                fail("case " + i + ", chat " + chat + ", body (base64) " + Base64.getEncoder().encodeToString(body)
                        + ": " + new String(body, StandardCharsets.UTF_8), e);
            }
        }
        // Not vacuous: the fuzzer's well-formed half is mostly the usual shape (the rest is odd on purpose).
        assertThat(fastAccepted).as("of %d the parser accepted", parserAccepted).isGreaterThan(parserAccepted / 3);
    }

    /** True when the fast path took the body; then the parser took it too and read the same. */
    private static boolean agree(boolean chat, byte[] body) {
        RequestBodyScan fast = FastBodyScan.scan(body, chat);
        if (fast == null) {
            return false;
        }
        String text = new String(body, StandardCharsets.UTF_8);
        assertThat(Utf8Check.firstInvalid(body)).as("valid UTF-8: " + text).isEqualTo(-1);
        RequestBodyScan parsed;
        try {
            parsed = RequestBodyScan.scan(body, chat, false);
        } catch (EngineProtocolException e) {
            throw new AssertionError("the parser refused what the fast path took: " + text, e);
        }
        assertThat(fast.model).as(text).isEqualTo(parsed.model);
        assertThat(fast.modelPresent).as(text).isEqualTo(parsed.modelPresent);
        assertThat(fast.streamToken).as(text).isEqualTo(parsed.streamToken);
        assertThat(fast.streamValue).as(text).isEqualTo(parsed.streamValue);
        assertThat(fast.kvLocation).as(text).isEqualTo(parsed.kvLocation);
        assertThat(fast.prompt == null).as(text).isEqualTo(parsed.prompt == null);
        if (fast.prompt != null) {
            assertThat(fast.prompt.invalid).as(text).isNull();
            assertThat(parsed.prompt.invalid).as(text).isNull();
            assertThat(fast.prompt.tokenIds).as(text).isEqualTo(parsed.prompt.tokenIds);
            assertThat(fast.prompt.length).as(text).isEqualTo(parsed.prompt.length);
            assertThat(utf8(fast.prompt.parts.utf8(body))).as(text).isEqualTo(utf8(parsed.prompt.parts.utf8(body)));
        }
        for (String name : EDITED) {
            assertThat(edited(fast.members, name)).as("%s edited in %s", name, text)
                    .isEqualTo(edited(parsed.members, name));
        }
        return true;
    }

    private static boolean parses(boolean chat, byte[] body) {
        try {
            RequestBodyScan.scan(body, chat, false);
            return Utf8Check.firstInvalid(body) < 0;
        } catch (EngineProtocolException e) {
            return false;
        }
    }

    /** The body with one member dropped and one appended: where every member starts and ends shows in the bytes. */
    private static String edited(TopLevelJson members, String name) {
        return new String(members.copy().remove(name).set("added", 7).toBytes(), StandardCharsets.UTF_8);
    }

    private static byte[] utf8(PromptUtf8 prompt) {
        return Arrays.copyOf(prompt.bytes(), prompt.length());
    }
}
