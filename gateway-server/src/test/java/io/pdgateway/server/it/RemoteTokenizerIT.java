package io.pdgateway.server.it;

import static io.pdgateway.server.it.KvEventPods.WAIT;
import static io.pdgateway.server.it.KvEventPods.X;
import static io.pdgateway.server.it.KvEventPods.Y;
import static io.pdgateway.server.it.KvEventPods.chat;
import static io.pdgateway.server.it.KvEventPods.completion;
import static io.pdgateway.server.it.KvEventPods.document;
import static io.pdgateway.server.it.KvEventPods.fullBlocks;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.server.metrics.DashboardCheck;
import io.pdgateway.server.metrics.ExpositionLint;
import io.pdgateway.server.routing.RemoteTokenizer;
import io.pdgateway.server.routing.RemoteTokenizerSettings;
import io.pdgateway.sim.RecordedRequest;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE=remote} over real sockets: a gateway with no tokenizer file asks the pods'
 * own {@code /tokenize} for each prompt's tokens, so its blocks match the blocks the pods report in their KV-cache
 * events, and prefix-cache routing follows the engines' caches. Two standard engine-sim pods that tokenize with the
 * bundled tokenizer publish those events; prompts sent straight to a pod change its cache behind the gateway's back.
 * When no tokens come (an error, a hang, a pod that cannot render chat), the request is still served, and the
 * outcome counter says why.
 */
class RemoteTokenizerIT {
    /** The dashboard's collapsed row for KV events and engine tokenizing (checked here, where they run). */
    private static final String DASHBOARD_ROW = "KV events and engine tokenizing";
    @AutoClose
    private TestCluster cluster;
    private KvEventPods pods;

    /** Starts X and Y publishing events, and a prefix-cache gateway with the remote tokenizer and no file. */
    private void start(String engine, Map<String, String> extraEnv) throws Exception {
        Map<String, String> env = new HashMap<>(Map.of("ROUTING_ALGORITHM", "prefix-cache",
                "AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE", "remote"));
        env.putAll(extraEnv);
        pods = KvEventPods.start(engine, env);
        cluster = pods.cluster();
    }

    @ParameterizedTest
    @ValueSource(strings = {"vllm", "sglang"})
    void withoutAFile_theEnginesTokensMatchTheirEvents_andRoutingFollowsTheirCaches(String engine) throws Exception {
        start(engine, Map.of());
        String a = document("alpha", 18);
        direct(X, "/v1/completions", completion(a));
        await().atMost(WAIT).until(() -> heldBlocks(a, X) == fullBlocks(a));
        for (int i = 0; i < 3; i++) {
            assertThat(routedTo("/v1/completions", completion(a + " question " + i))).as("X holds the prefix")
                    .isEqualTo(X);
        }

        for (int i = 0; i < 5; i++) {
            direct(X, "/v1/completions", completion(document("filler" + i, 18))); // evicts a from X
        }
        direct(Y, "/v1/completions", completion(a));
        await().atMost(WAIT).until(() -> heldBlocks(a, X) == 0 && heldBlocks(a, Y) == fullBlocks(a));
        for (int i = 0; i < 3; i++) {
            assertThat(routedTo("/v1/completions", completion(a + " follow-up " + i))).as("now only Y holds it")
                    .isEqualTo(Y);
        }

        String metrics = cluster.get("/metrics").body();
        assertThat(outcome(metrics, "ok")).isGreaterThanOrEqualTo(6);
        assertThat(outcome(metrics, "error") + outcome(metrics, "timeout")).isZero();
        assertThat(metrics).containsPattern("(?m)^" + RemoteTokenizer.DURATION + "_count 6(\\.0)?$");
        assertThat(tokenizeCalls(X) + tokenizeCalls(Y)).isEqualTo(6);
        assertThat(tokenizeCalls(X)).as("the pods are asked in turn").isEqualTo(3);
        assertThat(metrics).containsPattern("(?m)^" + RemoteTokenizer.IN_FLIGHT + " 0(\\.0)?$");
        assertThat(DashboardCheck.problems(MetricsExpositionIT.DASHBOARD, ExpositionLint.check(metrics), DASHBOARD_ROW))
                .as("the dashboard's row for this feature finds its series").isEmpty();
    }

    @Test
    void chatRequests_areTokenizedWithTheirMessages_byVllm() throws Exception {
        start("vllm", Map.of());
        String history = document("bravo", 18);
        direct(X, "/v1/chat/completions", chat(history));
        long[] rendered = KvEventPods.chatHashes(history);
        await().atMost(WAIT).until(() -> pods.heldBlocks(rendered, X) == rendered.length);

        for (int i = 0; i < 3; i++) {
            assertThat(routedTo("/v1/chat/completions", chat(history + " and then " + i))).isEqualTo(X);
        }
        RecordedRequest asked = tokenizeRequests().get(0);
        assertThat(asked.body()).contains("\"messages\":[{\"role\":\"user\"").contains("\"add_generation_prompt\":true")
                .contains("\"add_special_tokens\":false");
        assertThat(outcome(cluster.get("/metrics").body(), "ok")).isEqualTo(3);
    }

    @Test
    void aPromptOfTokenIds_matchesTheEnginesBlocksByItsIds_withoutAsking() throws Exception {
        start("vllm", Map.of());
        int[] ids = new int[18 * 16];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = 1_000 + (i * 37) % 5_000;
        }
        direct(X, "/v1/completions", idPrompt(ids, ""));
        await().atMost(WAIT).until(() -> pods.heldBlocks(KvEventPods.hashes(ids), X) == 18);

        for (int i = 0; i < 3; i++) {
            assertThat(routedTo("/v1/completions", idPrompt(ids, "," + (7 + i)))).as("X holds those ids").isEqualTo(X);
        }
        assertThat(tokenizeRequests()).as("the ids are the tokens: nothing to ask").isEmpty();
    }

    @Test
    void chatRequests_onSglangPods_areRoutedWithoutEngineTokens() throws Exception {
        start("sglang", Map.of());

        assertThat(routedTo("/v1/chat/completions", chat(document("charlie", 4)))).isIn(X, Y);

        String metrics = cluster.get("/metrics").body();
        assertThat(outcome(metrics, "unsupported")).as("SGLang's /tokenize renders no chat messages").isEqualTo(1);
        assertThat(tokenizeRequests()).isEmpty();
    }

    @Test
    void anEndpointThatRefuses_costsNoRequest_andIsCountedAsErrors() throws Exception {
        int closed;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = probe.getLocalPort();
        }
        start("vllm", Map.of(RemoteTokenizerSettings.ENDPOINT_ENV, "http://127.0.0.1:" + closed));

        for (int i = 0; i < 3; i++) {
            assertThat(routedTo("/v1/completions", completion(document("delta" + i, 6)))).isIn(X, Y);
        }

        String metrics = cluster.get("/metrics").body();
        assertThat(outcome(metrics, "error")).isEqualTo(3);
        assertThat(outcome(metrics, "ok")).isZero();
        assertThat(tokenizeRequests()).as("the named endpoint, not the pods, is asked").isEmpty();
    }

    @Test
    void anEndpointThatNeverAnswers_holdsARequestNoLongerThanTheTimeout() throws Exception {
        // Accepts connections into its backlog and never answers.
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            start("vllm", Map.of(RemoteTokenizerSettings.ENDPOINT_ENV, "http://127.0.0.1:" + silent.getLocalPort(),
                    RemoteTokenizerSettings.TIMEOUT_MS_ENV, "300"));

            long started = System.nanoTime();
            assertThat(routedTo("/v1/completions", completion(document("echo", 6)))).isIn(X, Y);
            long tookMs = (System.nanoTime() - started) / 1_000_000;

            assertThat(tookMs).as("waited for the timeout, then routed").isGreaterThanOrEqualTo(300).isLessThan(5_000);
            assertThat(outcome(cluster.get("/metrics").body(), "timeout")).isEqualTo(1);
        }
    }

    @Test
    void podsPublishingWhilePromptsAreHashedAsBytes_warnOncePerModel() throws Exception {
        assertThat(KvEventPods.publishingWarnings(() -> start("vllm",
                Map.of("AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE", "character"))))
                .as("both pods publish; one line for their model").singleElement()
                .satisfies(line -> assertThat(line).contains(TestCluster.MODEL)
                        .contains("AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE=remote"));
    }

    private int heldBlocks(String text, String name) {
        return pods.heldBlocks(text, name);
    }

    private String routedTo(String path, String body) throws Exception {
        return pods.routedTo(path, body);
    }

    private void direct(String name, String path, String body) throws Exception {
        pods.direct(name, path, body);
    }

    private static String idPrompt(int[] ids, String more) {
        StringBuilder json = new StringBuilder();
        for (int id : ids) {
            json.append(json.isEmpty() ? "" : ",").append(id);
        }
        return "{\"model\":\"" + TestCluster.MODEL + "\",\"prompt\":[" + json + more + "],\"max_tokens\":2}";
    }

    private List<RecordedRequest> tokenizeRequests() {
        return List.of(X, Y).stream().flatMap(name -> cluster.simPod(name).recordedRequests().stream())
                .filter(r -> r.path().equals("/tokenize")).toList();
    }

    private long tokenizeCalls(String name) {
        return cluster.simPod(name).recordedRequests().stream().filter(r -> r.path().equals("/tokenize")).count();
    }

    private static double outcome(String metrics, String outcome) {
        Matcher m = Pattern.compile("(?m)^" + RemoteTokenizer.REQUESTS + "_total\\{outcome=\"" + outcome
                + "\"} ([0-9.eE+-]+)$").matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }
}
