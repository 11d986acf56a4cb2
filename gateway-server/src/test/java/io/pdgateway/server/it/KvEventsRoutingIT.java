package io.pdgateway.server.it;

import static io.pdgateway.server.it.KvEventPods.KV_TOKENS;
import static io.pdgateway.server.it.KvEventPods.WAIT;
import static io.pdgateway.server.it.KvEventPods.X;
import static io.pdgateway.server.it.KvEventPods.Y;
import static io.pdgateway.server.it.KvEventPods.completion;
import static io.pdgateway.server.it.KvEventPods.document;
import static io.pdgateway.server.it.KvEventPods.fullBlocks;
import static io.pdgateway.server.it.KvEventPods.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.core.cache.CacheViews;
import io.pdgateway.server.kvevents.KvEventMetrics;
import io.pdgateway.server.kvevents.KvEventsSettings;
import io.pdgateway.sim.kvevents.BundledTokenizer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Precise prefix routing over real sockets: two standard engine-sim pods publish their prefix caches' KV events over
 * ZeroMQ, the gateway follows them (annotation-named endpoints, the pods' own tokenizer file) and routes prefix-cache on
 * the event-fed views. Prompts are sent straight to a pod (past the gateway) to change its cache behind the gateway's
 * back: only the events can tell the gateway. Waits are on the gateway's view (Awaitility, bounded); what is asserted is
 * where the gateway sends requests and what /metrics shows.
 */
class KvEventsRoutingIT {
    @AutoClose
    private TestCluster cluster;
    private KvEventPods pods;
    @TempDir
    private Path dir;

    /** Starts X and Y publishing events, and a prefix-cache gateway following them with the bundled tokenizer. */
    private void start(String engine, String staleMs) throws Exception {
        Map<String, String> env = KvEventPods.bundledTokenizerEnv(dir, false);
        env.put(KvEventsSettings.STALE_MS_ENV, staleMs);
        pods = KvEventPods.start(engine, env);
        cluster = pods.cluster();
    }

    @ParameterizedTest
    @ValueSource(strings = {"vllm", "sglang"})
    void afterAPodEvictsAPrefix_theNextRequestWithItIsNoLongerSteeredThere(String engine) throws Exception {
        start(engine, "5000");
        String a = document("alpha", 18);
        direct(X, a);
        await().atMost(WAIT).until(() -> heldBlocks(a, X) == fullBlocks(a));
        for (int i = 0; i < 3; i++) {
            assertThat(routedTo(a + " question " + i)).as("X reported it holds the prefix").isEqualTo(X);
        }

        // Behind the gateway's back: X fills its cache with other prompts (evicting a), and Y computes a.
        for (int i = 0; i < 5; i++) {
            direct(X, document("filler" + i, 18));
        }
        direct(Y, a);
        await().atMost(WAIT).until(() -> heldBlocks(a, X) == 0 && heldBlocks(a, Y) == fullBlocks(a));

        for (int i = 0; i < 3; i++) {
            assertThat(routedTo(a + " follow-up " + i))
                    .as("X evicted the prefix (the gateway's own model would still say X: it sent a there 3 times)")
                    .isEqualTo(Y);
        }
        String metrics = cluster.get("/metrics").body();
        // What the gateway predicted for X (its view said X held a's blocks), beside what X's engine served.
        // (Its series follow the pod set at the next upkeep tick, once a second.)
        await().atMost(WAIT).untilAsserted(() -> {
            String now = cluster.get("/metrics").body();
            double routedToX = tokens(now, "pd_prefix_cache_routed_prompt_tokens_total", X);
            double predictedOnX = tokens(now, "pd_prefix_cache_predicted_hit_tokens_total", X);
            assertThat(predictedOnX).as("predicted cached on X").isPositive().isLessThanOrEqualTo(routedToX);
        });
        if (engine.equals("vllm")) {
            String served = cluster.podExposition(X, "/metrics");
            assertThat(total(served, "vllm:prefix_cache_hits_total")).as("X's engine served hits too").isPositive();
        }
        assertThat(counter(metrics, KvEventMetrics.RECEIVED, X)).isPositive();
        assertThat(counter(metrics, KvEventMetrics.APPLIED, X)).isPositive();
        assertThat(counter(metrics, KvEventMetrics.APPLIED, Y)).isPositive();
    }

    @ParameterizedTest
    @ValueSource(strings = {"vllm"})
    void afterASequenceGap_replayRestoresTheView(String engine) throws Exception {
        // A long staleness limit: its probes (a fifth of it) would replay the lost batch too, and this test is about
        // the live stream noticing the gap by itself.
        start(engine, "30000");
        String warm = document("warm", 8);
        direct(X, warm);
        await().atMost(WAIT).until(() -> heldBlocks(warm, X) == fullBlocks(warm));
        String b = document("bravo", 18);
        cluster.simPod(X).kvEvents().dropNext(1); // b's BlockStored batch is lost on the wire (kept for replay)
        direct(X, b);
        String c = document("charlie", 4);
        direct(X, c); // the next batch shows the gap

        await().atMost(WAIT).until(() -> heldBlocks(b, X) == fullBlocks(b));
        for (int i = 0; i < 3; i++) {
            assertThat(routedTo(b + " question " + i)).as("the replayed batch put b on X").isEqualTo(X);
        }
        String metrics = cluster.get("/metrics").body();
        assertThat(counter(metrics, KvEventMetrics.REPLAY_REQUESTS + "_total", X, "reason", "gap"))
                .as(metrics.lines().filter(l -> l.startsWith("pd_gateway_kv_events")).toList().toString())
                .isPositive();
        assertThat(counter(metrics, KvEventMetrics.VIEW_RESETS + "_total", X)).as("nothing was lost for good")
                .isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"vllm"})
    void killingAPodsEventStream_fallsBackToTheGatewaysModel_withinTheStalenessLimit(String engine)
            throws Exception {
        start(engine, "1000");
        String e = document("echo", 18);
        direct(X, e);
        await().atMost(WAIT).until(() -> heldBlocks(e, X) == fullBlocks(e));
        String before = cluster.get("/metrics").body();
        assertThat(TestCluster.unlabelled(before, KvEventMetrics.STALE_PODS)).isZero();
        assertThat(podGauge(before, KvEventMetrics.POD_LIVE, X)).isEqualTo(1.0);

        cluster.simPod(X).kvEvents().close(); // the engine keeps serving; its event stream is gone
        // Within the limit (counted from the last message heard, just before the kill), plus the poller's tick and
        // the /metrics round trips as slack.
        await().atMost(1_000 + 1_000, TimeUnit.MILLISECONDS).pollInterval(Duration.ofMillis(20))
                .until(() -> TestCluster.unlabelled(cluster.get("/metrics").body(), KvEventMetrics.STALE_PODS) == 1.0);
        String after = cluster.get("/metrics").body();
        assertThat(podGauge(after, KvEventMetrics.POD_LIVE, X)).as("X's view is the gateway's model now").isZero();
        assertThat(podGauge(after, KvEventMetrics.POD_LIVE, Y)).isEqualTo(1.0);
        assertThat(caches().eventsLive(id(X))).isFalse();
        assertThat(caches().eventsLive(id(Y))).as("the other pod's stream is untouched").isTrue();

        // The gateway's model takes over from the engine's last report: e is still on X, and what the gateway routes
        // now counts again without any event confirming it.
        assertThat(routedTo(e + " after the stream died")).isEqualTo(X);
        String f = document("foxtrot", 18);
        String first = routedTo(f);
        assertThat(routedTo(f + " again")).as("the model remembers where it sent f").isEqualTo(first);
    }

    private CacheViews caches() {
        return pods.caches();
    }

    private int heldBlocks(String prompt, String name) {
        return pods.heldBlocks(prompt, name);
    }

    private String routedTo(String prompt) throws Exception {
        return pods.routedTo("/v1/completions", completion(prompt));
    }

    /** Sends the prompt straight to the pod, past the gateway. */
    private void direct(String name, String prompt) throws Exception {
        pods.direct(name, "/v1/completions", completion(prompt));
        assertThat(BundledTokenizer.get().encode(prompt).length).as("fits the pod's KV cache").isLessThan(KV_TOKENS / 3);
    }

    private static double counter(String metrics, String name, String pod, String... tags) {
        String suffix = name.endsWith("_total") ? "" : "_total";
        Pattern p = Pattern.compile("(?m)^" + Pattern.quote(name + suffix) + "\\{([^}]*)} ([0-9.eE+-]+)$");
        Matcher m = p.matcher(metrics);
        double sum = 0;
        while (m.find()) {
            String labels = m.group(1);
            boolean match = labels.contains("pod_name=\"" + id(pod) + "\"");
            for (int i = 0; i < tags.length; i += 2) {
                match &= labels.contains(tags[i] + "=\"" + tags[i + 1] + "\"");
            }
            if (match) {
                sum += Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }

    /** A {namespace, pod_name} series of the gateway's own. */
    private static double tokens(String metrics, String name, String pod) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name + "{namespace=\"default\",pod_name=\"" + pod + "\"}")
                + " ([0-9.eE+-]+)$").matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    /** The sum of a metric's samples, whatever their labels. */
    private static double total(String metrics, String name) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*})? ([0-9.eE+-]+)$").matcher(metrics);
        double sum = 0;
        while (m.find()) {
            sum += Double.parseDouble(m.group(2));
        }
        return sum;
    }

    private static double podGauge(String metrics, String name, String pod) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name + "{pod_name=\"" + id(pod) + "\"}") + " ([0-9.eE+-]+)$")
                .matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }
}
