package io.pdgateway.server.front;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * How many completions each step of an answer carries, read from the body's {@code n}: an integer from 1 to 128 as
 * sent, anything else (absent, 0, too large, a string, a fraction, a negative) as 1, on the fast scan's bodies and on
 * those the parser reads (a name with an escape sends the body the parser's way).
 */
class RequestChoicesTest {
    private static int choices(String members) throws Exception {
        String body = "{\"model\":\"m\",\"prompt\":\"hi\"" + members + "}";
        return OpenAiRequestParser.parse("/v1/completions", body.getBytes(StandardCharsets.UTF_8)).choices();
    }

    @Test
    void nAsSent_orOne() throws Exception {
        assertThat(choices("")).isEqualTo(1);
        assertThat(choices(",\"n\":1")).isEqualTo(1);
        assertThat(choices(",\"n\":2")).isEqualTo(2);
        assertThat(choices(",\"n\":128")).isEqualTo(128);
        assertThat(choices(",\"n\":129")).isEqualTo(1);
        assertThat(choices(",\"n\":0")).isEqualTo(1);
        assertThat(choices(",\"n\":-2")).isEqualTo(1);
        assertThat(choices(",\"n\":2.5")).isEqualTo(1);
        assertThat(choices(",\"n\":\"2\"")).isEqualTo(1);
        assertThat(choices(",\"n\":null")).isEqualTo(1);
        assertThat(choices(",\"\\u006e\":3")).as("an escaped name: the parser's way").isEqualTo(3);
    }
}
