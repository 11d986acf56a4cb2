package io.pdgateway.server.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The /tokenize client over loopback against a stub engine that answers as vLLM and SGLang do: the body posted as given,
 * error answers, a long answer, what an answer may hold; and the start-up errors for tokenizer files that are missing
 * or unusable.
 */
class EngineTokenizeClientTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private Vertx vertx;
    private HttpServer server;
    private EngineTokenizeClient client;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
            JsonNode json;
            try {
                json = JSON.readTree(body.getBytes());
            } catch (IOException e) {
                req.response().setStatusCode(400).end();
                return;
            }
            received.add(json);
            if (!req.path().equals(EngineTokenizeClient.PATH) || json.path("model").asText().equals("missing")) {
                req.response().setStatusCode(404).end("{\"error\":\"model not found\"}");
                return;
            }
            int n = json.has("messages") ? json.get("messages").size() * 3 : json.get("prompt").asText().length();
            StringBuilder tokens = new StringBuilder();
            for (int i = 0; i < n; i++) {
                tokens.append(i == 0 ? "" : ",").append(100 + i);
            }
            req.response().end("{\"count\":" + n + ",\"max_model_len\":8192,\"tokens\":[" + tokens + "]}");
        })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        // The shape of the exchange is under test, not its latency: a cold JVM on a busy machine took over the 2-second
        // production bound for its first call.
        HttpClient http = vertx.createHttpClient();
        client = new EngineTokenizeClient(vertx, () -> http, 10_000);
    }

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aBody_isPostedAsGiven_andTheTokensRead() throws Exception {
        String body = "{\"model\":\"llama\",\"prompt\":\"abc\",\"add_special_tokens\":true}";

        int[] ids = await(client.post("127.0.0.1", server.actualPort(), false, Buffer.buffer(body)));

        assertThat(ids).containsExactly(100, 101, 102);
        assertThat(received.get(0).toString()).isEqualTo(body);
    }

    @Test
    void errorAnswer_failsWithTheStatus() {
        assertThatThrownBy(() -> await(client.post("127.0.0.1", server.actualPort(), false,
                Buffer.buffer("{\"model\":\"missing\",\"prompt\":\"x\"}")))).hasMessageContaining("404");
    }

    @Test
    void aLongAnswer_isReadOffTheEventLoop_whole() throws Exception {
        String prompt = "x".repeat(EngineTokenizeClient.PARSE_INLINE_MAX_BYTES / 3);

        int[] ids = await(client.post("127.0.0.1", server.actualPort(), false,
                Buffer.buffer("{\"model\":\"llama\",\"prompt\":\"" + prompt + "\"}")));

        assertThat(ids).hasSize(prompt.length()).startsWith(100, 101).endsWith(100 + prompt.length() - 1);
    }

    @Test
    void answers_areReadForTheirTokensAlone_andAnythingButIdsIsRefused() throws Exception {
        int[] ids = await(EngineTokenizeClient.parse(io.vertx.core.buffer.Buffer.buffer("{\"count\":3,"
                + "\"token_strs\":[\"a\",\"b\",\"c\"],\"extra\":{\"tokens\":[9]},\"tokens\":[1,22,333],"
                + "\"max_model_len\":8}")));

        assertThat(ids).containsExactly(1, 22, 333);
        for (String bad : new String[] {"{\"tokens\":[1,2.5]}", "{\"tokens\":[1,\"2\"]}",
            "{\"tokens\":[1,4294967296]}", "{\"count\":0}", "[1,2]", "{\"tokens\":3}", "{\"tokens\":[1,"}) {
            assertThatThrownBy(() -> await(EngineTokenizeClient.parse(io.vertx.core.buffer.Buffer.buffer(bad))))
                    .as(bad).hasMessageContaining(EngineTokenizeClient.PATH);
        }
    }

    @Test
    void tokenizerFiles_missingOrUnusable_failStartUpByName(@TempDir Path dir) throws IOException {
        Path missing = dir.resolve("tokenizer.json");
        assertThatThrownBy(() -> TokenizerFiles.tokenizer(missing)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(missing.toString()).hasMessageContaining("does not exist");
        Path bad = Files.writeString(dir.resolve("bad.json"), "{\"model\":{\"type\":\"WordPiece\",\"vocab\":{}}}");
        assertThatThrownBy(() -> TokenizerFiles.tokenizer(bad)).hasMessageContaining("WordPiece");
        assertThatThrownBy(() -> TokenizerFiles.tokenizer(dir)).hasMessageContaining("cannot be read");
    }

    private static int[] await(io.vertx.core.Future<int[]> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
