package io.pdgateway.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.server.routing.ModelTokenizers;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.kvevents.BundledTokenizer;
import io.vertx.core.Vertx;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code check-tokenizer} against a tokenizing engine-sim vLLM pod over a real socket: the pod's own files agree on
 * every probe; without the chat template the chat probes differ from the first token; a tokenizer file without its
 * post-processor misses the BOS token a completion gets; an engine that does not answer is no check at all; with the
 * files named by the environment, as serve reads them, only the model's own are read (another's may be missing).
 */
class CheckTokenizerCommandTest {
    private static final Vertx VERTX = Vertx.vertx();
    private static SimPod pod;
    @TempDir
    Path dir;

    private record Outcome(int status, String out, String err) {
    }

    @BeforeAll
    static void startPod() throws Exception {
        pod = SimPod.start(VERTX, SimConfig.builder().engine("vllm").timeScale(1e-4).modelName("m")
                .bundledTokenizer(true).build()).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        pod.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        VERTX.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private Outcome run(String engine, String tokenizerJson, boolean withChatTemplate) throws Exception {
        Path tokenizer = Files.writeString(dir.resolve("tokenizer.json"), tokenizerJson);
        List<String> args = new ArrayList<>(List.of("--engine", engine, "--model", "m", "--tokenizer-file",
                tokenizer.toString()));
        if (withChatTemplate) {
            args.addAll(List.of("--chat-template",
                    Files.writeString(dir.resolve("tokenizer_config.json"), BundledTokenizer.configJson()).toString()));
        }
        return execute(args, Map.of());
    }

    private static Outcome execute(List<String> args, Map<String, String> environment) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = new CommandLine(new CheckTokenizerCommand(environment)).setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true)).execute(args.toArray(String[]::new));
        return new Outcome(status, out.toString(), err.toString());
    }

    @Test
    void theModelsFilesFromTheEnvironment_anotherModelsNotRead() throws Exception {
        Path tokenizer = Files.writeString(dir.resolve("tokenizer.json"), BundledTokenizer.json());
        Path config = Files.writeString(dir.resolve("tokenizer_config.json"), BundledTokenizer.configJson());
        Map<String, String> environment = Map.of(
                ModelTokenizers.FILES_ENV, "other=/no/such/tokenizer.json, m=" + tokenizer,
                ModelTokenizers.CHAT_TEMPLATES_ENV, "m=" + config + ",other=/no/such/tokenizer_config.json");

        Outcome outcome = execute(List.of("--engine", pod.baseUrl(), "--model", "m"), environment);

        assertThat(outcome.status()).as(outcome.out() + outcome.err()).isZero();
        assertThat(outcome.out().lines().filter(line -> line.contains(" agrees: "))).hasSize(3);
    }

    @Test
    void thePodsOwnFiles_agreeOnEveryProbe() throws Exception {
        Outcome outcome = run(pod.baseUrl(), BundledTokenizer.json(), true);

        assertThat(outcome.status()).as(outcome.out() + outcome.err()).isZero();
        assertThat(outcome.out().lines().filter(line -> line.contains(" agrees: "))).hasSize(3);
        assertThat(outcome.out()).doesNotContain("DIFFERS");
    }

    @Test
    void withoutTheChatTemplate_theChatProbesDifferFromTheFirstToken() throws Exception {
        Outcome outcome = run(pod.baseUrl(), BundledTokenizer.json(), false);

        assertThat(outcome.status()).isEqualTo(1);
        assertThat(outcome.out()).containsPattern("(?m)^completion +agrees")
                .containsPattern("(?m)^chat +DIFFERS at token 0 ")
                .containsPattern("(?m)^chat with tools +DIFFERS at token 0 ")
                .contains(ModelTokenizers.CHAT_TEMPLATES_ENV);
    }

    @Test
    void aTokenizerFileWithoutItsPostProcessor_missesTheBosTokenACompletionGets() throws Exception {
        String withoutPostProcessor = BundledTokenizer.json().replaceFirst("(?s)\"post_processor\": \\{.*?\\n  },",
                "\"post_processor\": null,");
        assertThat(withoutPostProcessor).contains("\"post_processor\": null,");

        Outcome outcome = run(pod.baseUrl(), withoutPostProcessor, true);

        assertThat(outcome.status()).isEqualTo(1);
        assertThat(outcome.out())
                .containsPattern("(?m)^completion +DIFFERS at token 0 .*engine \"<\\|begin_of_text\\|>")
                .containsPattern("(?m)^chat +agrees");
    }

    @Test
    void anSglangPod_answersTheCompletionProbe_andTheChatProbesAreSkipped() throws Exception {
        SimPod sglang = SimPod.start(VERTX, SimConfig.builder().engine("sglang").timeScale(1e-4).modelName("m")
                .bundledTokenizer(true).build()).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        try {
            Outcome outcome = run(sglang.baseUrl(), BundledTokenizer.json(), true);

            assertThat(outcome.status()).as(outcome.out() + outcome.err()).isZero();
            assertThat(outcome.out()).containsPattern("(?m)^completion +agrees")
                    .containsPattern("(?m)^chat +skipped: the engine's /tokenize takes no chat messages")
                    .containsPattern("(?m)^chat with tools +skipped");
        } finally {
            sglang.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void anEngineThatDoesNotAnswer_isNoCheck() throws Exception {
        int closed;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = probe.getLocalPort();
        }

        Outcome outcome = run("http://127.0.0.1:" + closed, BundledTokenizer.json(), true);

        assertThat(outcome.status()).isEqualTo(2);
        assertThat(outcome.err()).contains("no answer from");
    }
}
