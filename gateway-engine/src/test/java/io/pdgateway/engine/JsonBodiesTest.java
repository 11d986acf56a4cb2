package io.pdgateway.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The parser's limits hold for the whole-tree parse and the byte-level editor alike, and name the limit. */
class JsonBodiesTest {

    /** An object whose "x" member nests {@code depth - 1} arrays: {@code depth} levels in all. */
    private static byte[] nested(int depth) {
        return ("{\"x\":" + "[".repeat(depth - 1) + "]".repeat(depth - 1) + "}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void nestingAtTheLimit_accepted() throws Exception {
        assertThat(JsonBodies.parseObject(nested(JsonBodies.MAX_NESTING_DEPTH)).has("x")).isTrue();
        assertThat(TopLevelJson.parse(nested(JsonBodies.MAX_NESTING_DEPTH)).has("x")).isTrue();
    }

    @Test
    void nestingBeyondTheLimit_refusedNamingIt() {
        byte[] deep = nested(JsonBodies.MAX_NESTING_DEPTH + 1);
        assertThatThrownBy(() -> JsonBodies.parseObject(deep)).isInstanceOf(EngineProtocolException.class)
                .hasMessageContaining("at most 128 levels of nesting");
        assertThatThrownBy(() -> TopLevelJson.parse(deep)).isInstanceOf(EngineProtocolException.class)
                .hasMessageContaining("at most 128 levels of nesting");
    }

    @Test
    void invalidUtf8_refused() {
        byte[] body = "{\"model\":\"m\",\"x\":\"caf\u00e9\"}".getBytes(StandardCharsets.UTF_8);
        body[body.length - 3] = (byte) 0xFF; // a byte that starts no UTF-8 sequence, inside a string
        assertThatThrownBy(() -> JsonBodies.parseObject(body)).isInstanceOf(EngineProtocolException.class)
                .hasMessageContaining("invalid JSON");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"{\"a\":[", "{\"a\":1} {\"b\":2}", "{'a':1}",
        "{\"a\":tru}", "{\"a\":1,}", "{\"a\":]", "{\"a\":-5e0091722710186}"})
    void refusals_sayWhereInTheRequestsTerms_neverNameTheParsersInternals(String body) {
        assertThatThrownBy(() -> JsonBodies.parseObject(body.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(EngineProtocolException.class)
                .satisfies(e -> assertThat(e.getMessage()).startsWith("invalid JSON")
                        .doesNotContainIgnoringCase("jackson").doesNotContain("`", "REDACTED", "START_", "Source",
                                "BigDecimal", "Feature"));
        // The top-level reader skips values without reading numbers, so the last body passes it.
        Throwable topLevel = org.assertj.core.api.Assertions.catchThrowable(
                () -> TopLevelJson.parse(body.getBytes(StandardCharsets.UTF_8)));
        if (!body.contains("e009")) {
            assertThat(topLevel).isInstanceOf(EngineProtocolException.class);
            assertThat(topLevel.getMessage()).doesNotContain("`", "REDACTED", "START_", "Source");
        }
    }

    @Test
    void refusal_namesLineAndColumn() {
        assertThatThrownBy(() -> JsonBodies.parseObject("{\n  \"a\": tru\n}".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("at line 2, column");
    }
}
