package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.HttpResponseFor;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** The official OpenAI Java SDK, pointed at the gateway as a user would, streaming and not, over a PD pair. */
class OpenAiSdkIT {
    @AutoClose
    private TestCluster cluster;
    private OpenAIClient client;

    @AfterEach
    void tearDown() {
        if (client != null) {
            client.close();
        }
    }

    private ChatCompletionCreateParams params() {
        return ChatCompletionCreateParams.builder().model(TestCluster.MODEL).addUserMessage("Say hello")
                .maxCompletionTokens(6).build();
    }

    @Test
    void sdk_nonStreamingAndStreaming_throughPdPair() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd"));
        client = OpenAIOkHttpClient.builder().baseUrl("http://127.0.0.1:" + cluster.gateway().port() + "/v1")
                .apiKey("unused").maxRetries(0).build();

        HttpResponseFor<ChatCompletion> raw = client.chat().completions().withRawResponse().create(params());
        assertThat(raw.headers().values("target-pod")).containsExactly("decode-0");
        assertThat(raw.headers().values("prefill-target-pod")).containsExactly("prefill-0");
        ChatCompletion completion = raw.parse();
        assertThat(completion.choices()).hasSize(1);
        assertThat(completion.choices().get(0).message().content()).isPresent();
        assertThat(completion.usage().orElseThrow().completionTokens()).isEqualTo(6);

        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params())) {
            List<ChatCompletionChunk> chunks = stream.stream().toList();
            long contentChunks = chunks.stream()
                    .filter(c -> !c.choices().isEmpty() && c.choices().get(0).delta().content().filter(s -> !s.isEmpty()).isPresent())
                    .count();
            assertThat(contentChunks).isEqualTo(6);
        }
    }
}
