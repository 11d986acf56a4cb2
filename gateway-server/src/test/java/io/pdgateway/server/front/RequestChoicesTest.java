package io.pdgateway.server.front;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * How many completions each step of an answer carries, read from the body's {@code n}: an integer from 1 to 128 as
 * sent, anything else (absent, 0, too large, a string, a fraction, a negative) as 1, on the fast scan's bodies and on
 * those the parser reads (a name with an escape sends the body the parser's way). And the streamed events that carry
 * no token: a chat stream's role chunk per choice, and the usage chunk when {@code stream_options.include_usage} is
 * true.
 */
class RequestChoicesTest {
    private static int choices(String members) throws Exception {
        String body = "{\"model\":\"m\",\"prompt\":\"hi\"" + members + "}";
        return OpenAiRequestParser.parse("/v1/completions", body.getBytes(StandardCharsets.UTF_8)).streamShape()
                .choices();
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

    private static int withoutTokens(String path, String members) throws Exception {
        String body = path.endsWith("chat/completions")
                ? "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]" + members + "}"
                : "{\"model\":\"m\",\"prompt\":\"hi\"" + members + "}";
        return OpenAiRequestParser.parse(path, body.getBytes(StandardCharsets.UTF_8)).streamShape()
                .eventsWithoutTokens();
    }

    @Test
    void eventsWithoutTokens_rolePerChoiceOnChat_andTheUsageChunk() throws Exception {
        String chat = "/v1/chat/completions";
        String completions = "/v1/completions";
        assertThat(withoutTokens(completions, ",\"stream\":true")).isZero();
        assertThat(withoutTokens(chat, ",\"stream\":true")).isEqualTo(1);
        assertThat(withoutTokens(chat, ",\"stream\":true,\"n\":3")).isEqualTo(3);
        assertThat(withoutTokens(chat, ",\"stream\":true,\"stream_options\":{\"include_usage\":true}")).isEqualTo(2);
        assertThat(withoutTokens(completions, ",\"stream\":true,\"stream_options\":{\"include_usage\":true}"))
                .isEqualTo(1);
        assertThat(withoutTokens(chat, ",\"stream\":true,\"stream_options\":{\"include_usage\":false}")).isEqualTo(1);
        assertThat(withoutTokens(chat, ",\"stream\":true,\"stream_options\":null")).isEqualTo(1);
        assertThat(withoutTokens(chat, ",\"stream\":true,\"stream_options\":{\"continuous_usage_stats\":true,"
                + "\"include_usage\":true}")).isEqualTo(2);
    }
}
