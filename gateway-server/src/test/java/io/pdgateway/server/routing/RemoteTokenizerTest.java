package io.pdgateway.server.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.server.front.OpenAiRequest;
import io.pdgateway.server.front.OpenAiRequestParser;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The cap on calls out at once, over a real socket that never answers: past it a request is routed at once without the
 * engine's tokens (counted busy), and the calls out are given back when they end.
 */
class RemoteTokenizerTest {
    private final Vertx vertx = Vertx.vertx();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    /** Held by the test: Vert.x closes a client nothing refers to, failing its requests. */
    private final HttpClient http = vertx.createHttpClient();

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void pastTheCap_aRequestIsNotHeld_andTheCallsOutAreGivenBackWhenTheyTimeOut() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            RemoteTokenizerSettings settings = new RemoteTokenizerSettings(
                    new RemoteTokenizerSettings.Endpoint("127.0.0.1", silent.getLocalPort(), false), 500);
            RemoteTokenizer remote = new RemoteTokenizer(vertx, () -> http, null, settings, registry, 2);
            OpenAiRequest request = OpenAiRequestParser.parse(OpenAiRequestParser.COMPLETIONS_PATH,
                    "{\"model\":\"m\",\"prompt\":\"hello\"}".getBytes(StandardCharsets.UTF_8));
            ModelPods model = ModelPods.of("m", List.of());

            // Issued and read in one event-loop task: no call can end in between, however slow the machine.
            List<Object> issued = onContext(() -> {
                List<Future<int[]>> three = List.of(remote.tokens(request, model), remote.tokens(request, model),
                        remote.tokens(request, model));
                return List.of(three, registry.get(RemoteTokenizer.IN_FLIGHT).gauge().value());
            });
            @SuppressWarnings("unchecked")
            List<Future<int[]>> calls = (List<Future<int[]>>) issued.get(0);

            assertThat(calls.get(2).isComplete()).as("the third is past the cap: answered at once").isTrue();
            assertThat(calls.get(2).result()).isNull();
            assertThat(counted("busy")).isEqualTo(1);
            assertThat(issued.get(1)).as("two calls out").isEqualTo(2.0);
            for (Future<int[]> call : calls) {
                assertThat(call.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS)).isNull();
            }
            assertThat(counted("timeout")).isEqualTo(2);
            org.awaitility.Awaitility.await().atMost(10, TimeUnit.SECONDS)
                    .until(() -> registry.get(RemoteTokenizer.IN_FLIGHT).gauge().value() == 0);
        }
    }

    private double counted(String outcome) {
        return registry.get(RemoteTokenizer.REQUESTS).tag("outcome", outcome).counter().count();
    }

    private <T> T onContext(java.util.function.Supplier<T> action) throws Exception {
        Promise<T> result = Promise.promise();
        vertx.runOnContext(v -> result.complete(action.get()));
        return result.future().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
