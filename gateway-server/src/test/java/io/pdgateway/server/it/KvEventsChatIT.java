package io.pdgateway.server.it;

import static io.pdgateway.server.it.KvEventPods.WAIT;
import static io.pdgateway.server.it.KvEventPods.X;
import static io.pdgateway.server.it.KvEventPods.Y;
import static io.pdgateway.server.it.KvEventPods.chat;
import static io.pdgateway.server.it.KvEventPods.chatHashes;
import static io.pdgateway.server.it.KvEventPods.document;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.server.routing.ModelTokenizers;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Chat requests over KV-cache events with the model's own files: engines render a chat request with the model's chat
 * template before tokenizing it, so the blocks they report start with the template's tokens. A gateway given the
 * model's tokenizer.json and its tokenizer_config.json hashes chat prompts as they do and follows their caches; given
 * the tokenizer alone it cannot, and says so once, naming the setting. Two engine-sim pods that tokenize with the
 * bundled tokenizer and render with its bundled template publish the events over real sockets.
 */
class KvEventsChatIT {
    @AutoClose
    private TestCluster cluster;
    private KvEventPods pods;
    @TempDir
    private Path dir;

    /** Starts X and Y publishing events and a prefix-cache gateway with the bundled tokenizer file (and template). */
    private void start(String engine, boolean withChatTemplate) throws Exception {
        pods = KvEventPods.start(engine, KvEventPods.bundledTokenizerEnv(dir, withChatTemplate));
        cluster = pods.cluster();
    }

    @ParameterizedTest
    @ValueSource(strings = {"vllm", "sglang"})
    void withTheModelsChatTemplate_chatRequestsFollowTheEnginesCaches(String engine) throws Exception {
        try (LogCapture log = new LogCapture()) {
            start(engine, true);
            await().atMost(WAIT).until(() -> !log.lines("INFO", "the gateway's tokens agree with").isEmpty());
            assertThat(log.lines("INFO", "the gateway's tokens agree with")).singleElement().asString()
                    .as("SGLang's /tokenize renders no chat: the completion probe alone").endsWith(
                            engine.equals("vllm") ? "on 3 probe requests" : "on 1 probe request");
            assertThat(log.lines("WARN", "unlike")).isEmpty();
        }
        String history = document("delta", 18);
        long[] rendered = chatHashes(history);
        pods.direct(X, "/v1/chat/completions", chat(history));
        await().atMost(WAIT).until(() -> pods.heldBlocks(rendered, X) == rendered.length);
        for (int i = 0; i < 3; i++) {
            assertThat(pods.routedTo("/v1/chat/completions", chat(history + " and then " + i)))
                    .as("X reported the conversation's blocks").isEqualTo(X);
        }

        // Behind the gateway's back: X fills its cache with other conversations (evicting this one), Y computes it.
        for (int i = 0; i < 5; i++) {
            pods.direct(X, "/v1/chat/completions", chat(document("filler" + i, 18)));
        }
        pods.direct(Y, "/v1/chat/completions", chat(history));
        await().atMost(WAIT).until(() -> pods.heldBlocks(rendered, X) == 0
                && pods.heldBlocks(rendered, Y) == rendered.length);
        for (int i = 0; i < 3; i++) {
            assertThat(pods.routedTo("/v1/chat/completions", chat(history + " at last " + i)))
                    .as("only Y holds it now").isEqualTo(Y);
        }
    }

    @Test
    void withoutIt_theGatewaySaysOnceThatChatPromptsCannotMatch_andWhereItsTokensPartFromAPods() throws Exception {
        try (LogCapture log = new LogCapture()) {
            start("vllm", false);

            assertThat(log.lines("WARN", "publishes KV-cache events")).as("both pods publish; one line for their model")
                    .singleElement().satisfies(line -> assertThat(line).contains(TestCluster.MODEL)
                            .contains("chat template").contains(ModelTokenizers.CHAT_TEMPLATES_ENV));
            await().atMost(WAIT).until(() -> !log.lines("WARN", "tokenizes a chat unlike").isEmpty());
            assertThat(log.lines("WARN", "tokenizes a chat unlike")).as("its own check against one pod, once")
                    .singleElement().satisfies(line -> assertThat(line).contains("from token 0")
                            .contains("engine \"<|begin_of_text|>").contains("bin/pd-gateway check-tokenizer"));
        }

        String history = document("echo", 18);
        pods.direct(X, "/v1/chat/completions", chat(history));
        long[] rendered = chatHashes(history);
        await().atMost(WAIT).until(() -> pods.heldBlocks(rendered, X) == rendered.length);
        assertThat(pods.heldBlocks(KvEventPods.hashes(history), X))
                .as("the conversation's content hashed alone: what the gateway hashes without the template").isZero();
    }
}
