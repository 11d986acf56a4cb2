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
}
