package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.core.cache.BlockHasher;
import io.pdgateway.core.cache.CacheModel;
import io.pdgateway.core.cache.CacheViews;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.tokenize.TokenizerFormatException;
import io.pdgateway.server.kvevents.KvEventsAnnotations;
import io.pdgateway.server.routing.ModelTokenizers;
import io.pdgateway.sim.TimingProfile;
import io.pdgateway.sim.kvevents.BundledTokenizer;
import io.pdgateway.sim.kvevents.KvEventPublisher;
import io.pdgateway.sim.kvevents.KvEventsConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Two standard engine-sim pods, {@link #X} and {@link #Y}, publishing their prefix caches' KV events over ZeroMQ (so
 * they tokenize with the bundled tokenizer), annotated as an operator would, behind a gateway that follows them; and
 * what the tests read of the gateway's views of them. Prompts sent straight to a pod ({@link #direct}) change its
 * cache behind the gateway's back: only the events can tell the gateway.
 */
final class KvEventPods {
    static final String X = "pod-x";
    static final String Y = "pod-y";
    /** A small KV cache (in tokens) so a few prompts evict the oldest. */
    static final int KV_TOKENS = 1_024;
    static final Duration WAIT = Duration.ofSeconds(15);
    private static final String[] WORDS = {"gateway", "routes", "prefill", "decode", "tokens", "cache", "pods",
        "latency", "model", "prompt", "stream", "engine", "blocks", "events", "policy", "metrics"};

    private final TestCluster cluster;

    private KvEventPods(TestCluster cluster) {
        this.cluster = cluster;
    }

    /** Starts X and Y and a gateway with {@code env} following their events (the caller closes {@link #cluster()}). */
    static KvEventPods start(String engine, Map<String, String> env) throws Exception {
        TestCluster cluster = new TestCluster(engine);
        KvEventsConfig events = KvEventsConfig.parse("{\"enable_kv_cache_events\":true,\"publisher\":\"zmq\","
                + "\"endpoint\":\"tcp://*:*\",\"replay_endpoint\":\"tcp://*:*\"}");
        cluster.withSimOptions(b -> b.kvEvents(events)
                .timing(TimingProfile.llama3_8b_h100().withKvCapacityTokens(KV_TOKENS)));
        for (String name : List.of(X, Y)) {
            cluster.standard(name);
            KvEventPublisher publisher = cluster.simPod(name).kvEvents();
            // What an operator copies from the engine's own flag: a wildcard host, meaning the pod's IP.
            cluster.annotate(name, Map.of(KvEventsAnnotations.ENDPOINT, "tcp://*:" + port(publisher.endpoint()),
                    KvEventsAnnotations.REPLAY_ENDPOINT, "tcp://*:" + port(publisher.replayEndpoint())));
        }
        cluster.startGatewayWithKvEvents(env);
        KvEventPods pods = new KvEventPods(cluster);
        await().atMost(WAIT).until(() -> pods.caches().eventsLive(id(X)) && pods.caches().eventsLive(id(Y)));
        return pods;
    }

    /**
     * A prefix-cache gateway's settings for tokenizing as the pods do: the bundled tokenizer.json (and with
     * {@code chatTemplate} its tokenizer_config.json) written to {@code dir} as the model's files.
     */
    static Map<String, String> bundledTokenizerEnv(Path dir, boolean chatTemplate) throws IOException {
        Map<String, String> env = new HashMap<>(Map.of("ROUTING_ALGORITHM", "prefix-cache",
                "AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE", "huggingface", ModelTokenizers.FILES_ENV,
                TestCluster.MODEL + "=" + Files.writeString(dir.resolve("tokenizer.json"), BundledTokenizer.json())));
        if (chatTemplate) {
            env.put(ModelTokenizers.CHAT_TEMPLATES_ENV, TestCluster.MODEL + "="
                    + Files.writeString(dir.resolve("tokenizer_config.json"), BundledTokenizer.configJson()));
        }
        return env;
    }

    TestCluster cluster() {
        return cluster;
    }

    CacheViews caches() {
        return cluster.gateway().routing().session().caches();
    }

    static String id(String name) {
        return "default/" + name;
    }

    /** Leading blocks of a completion's prompt, as the pods tokenize it, that the gateway's view of the pod holds. */
    int heldBlocks(String text, String name) {
        return heldBlocks(hashes(text), name);
    }

    /** Leading blocks of these that the gateway's view of the pod holds. */
    int heldBlocks(long[] hashes, String name) {
        CacheModel model = caches().model(TestCluster.MODEL);
        Pod pod = caches().pods().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
        return model.match(hashes, List.of(pod), BlockHasher.DEFAULT_BLOCK_TOKENS).blocks(pod);
    }

    /** The blocks of a completion's prompt, as the pods tokenize it (their tokenizer's BOS first). */
    static long[] hashes(String text) {
        return hashes(BundledTokenizer.get().encodeAddingSpecialTokens(text));
    }

    static long[] hashes(int[] ids) {
        return BlockHasher.chain(BlockHasher.seed(TestCluster.MODEL), ids, ids.length,
                BlockHasher.DEFAULT_BLOCK_TOKENS);
    }

    /** The blocks of a one-message chat request with this content, as the pods render it with their template. */
    static long[] chatHashes(String content) {
        try {
            return hashes(BundledTokenizer.get().encode(BundledTokenizer.chatTemplate().render(
                    List.of(Map.of("role", "user", "content", content)), true, Map.of())));
        } catch (TokenizerFormatException e) {
            throw new IllegalStateException(e);
        }
    }

    static int fullBlocks(String text) {
        return hashes(text).length;
    }

    /** About {@code words} distinct-looking words after a unique head, well under the pods' KV capacity. */
    static String document(String head, int words) {
        StringBuilder text = new StringBuilder(head).append(':');
        for (int i = 0; i < words * 4; i++) {
            text.append(' ').append(WORDS[(i * 7 + head.length()) % WORDS.length]).append(i);
        }
        return text.toString();
    }

    /** Sends the body straight to the pod, past the gateway; it must be served. */
    void direct(String name, String path, String body) throws Exception {
        HttpResponse<String> response = cluster.http.send(HttpRequest.newBuilder(URI.create(
                cluster.simPod(name).baseUrl() + path)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    /** The pod the gateway served the body with. */
    String routedTo(String path, String body) throws Exception {
        HttpResponse<String> response = cluster.post(path, body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.headers().firstValue("target-pod").orElseThrow();
    }

    /** What starting pods and a gateway may throw. */
    @FunctionalInterface
    interface Start {
        void run() throws Exception;
    }

    /** The gateway's warnings, while {@code start} runs, that pods publish events for a model tokenized unlike them. */
    static List<String> publishingWarnings(Start start) throws Exception {
        try (LogCapture log = new LogCapture()) {
            start.run();
            return log.lines("WARN", "publishes KV-cache events");
        }
    }

    static String chat(String content) {
        return "{\"model\":\"" + TestCluster.MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"" + content
                + "\"}],\"max_tokens\":2}";
    }

    static String completion(String prompt) {
        return "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":\"" + prompt + "\",\"max_tokens\":2}";
    }

    private static int port(String endpoint) {
        return Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
    }
}
