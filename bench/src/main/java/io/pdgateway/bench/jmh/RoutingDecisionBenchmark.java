package io.pdgateway.bench.jmh;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.core.cache.BlockHasher;
import io.pdgateway.core.session.Admission;
import io.pdgateway.core.session.PromptFeatures;
import io.pdgateway.core.session.Routed;
import io.pdgateway.core.session.RoutingSession;
import io.pdgateway.core.session.SessionClock;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One pd routing decision as the server makes it: through the {@link RoutingSession} (the whole cascade, steps 0-5,
 * the charge and the prefix-cache hold under the model's lock) and the release of its lease, over a model of N pods in
 * N/2 rolesets with live-looking load: requests in flight on random pods, random engine metrics, and prefix-cache views
 * holding earlier prompts. The request is a 1,000- or 8,000-token prompt (character tokenizer: 4 bytes a token, 16
 * tokens a block) sharing its prefix with prompts some pods hold.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RoutingDecisionBenchmark {
    @Param({"8", "64", "512", "4096"})
    int pods;

    @Param({"prefix_cache/load_balancing", "least_request/least_request", "conductor/conductor",
        "hybrid_cache_load/token_load", "predicted_ttft/token_load"})
    String policies;

    /** Prompt length: a chat turn, and a long RAG or agent prompt (8k tokens = 512 blocks of the cache model). */
    @Param({"1000", "8000"})
    int promptTokens;

    private RoutingSession session;
    private Admission admission;
    private PromptFeatures features;

    @Setup
    public void setUp() {
        SplittableRandom seed = new SplittableRandom(42);
        List<Pod> list = new ArrayList<>();
        for (int i = 0; i < pods / 2; i++) {
            list.add(pod("p" + i, PodRole.PREFILL, "rs" + i, i));
            list.add(pod("d" + i, PodRole.DECODE, "rs" + i, i));
        }
        ClusterSnapshot snapshot = ClusterSnapshot.of(list);
        Map<String, PodMetrics> metrics = new HashMap<>();
        for (Pod pod : list) {
            metrics.put(pod.id(), new PodMetrics(seed.nextInt(5), Double.NaN, Double.NaN, seed.nextDouble(),
                    seed.nextDouble(2000), 20 + seed.nextDouble(20), 434_000, 0));
        }
        String[] parts = policies.split("/");
        GatewaySettings settings = GatewaySettings.fromEnv(Map.of("ROUTING_ALGORITHM", "pd",
                "AIBRIX_PREFILL_SCORE_POLICY", parts[0], "AIBRIX_DECODE_SCORE_POLICY", parts[1]));
        session = RoutingSession.create(settings.routing(), () -> snapshot, pod -> metrics.get(pod.id()),
                SessionClock.SYSTEM, 7, warning -> { });
        admission = session.admit("m", null, null);
        String prompt = "word ".repeat(promptTokens * 4 / 5);
        // Earlier traffic: requests still in flight (their leases never released) holding 64 different prompts in
        // the pods' prefix-cache views, one of which this request shares.
        for (int i = 0; i < pods; i++) {
            PromptFeatures earlier = new PromptFeatures(promptTokens, hash("system prompt " + (i % 64) + " " + prompt),
                    promptTokens + 200);
            session.route(admission, earlier, "warm-" + i, null);
        }
        features = new PromptFeatures(promptTokens, hash("system prompt 3 " + prompt), promptTokens + 200);
    }

    /** The prompt's block hashes as the server computes them with the character tokenizer: 4 bytes a token. */
    private static long[] hash(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        int[] tokens = new int[bytes.length / 4];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = (bytes[4 * i] & 0xff) << 24 | (bytes[4 * i + 1] & 0xff) << 16 | (bytes[4 * i + 2] & 0xff) << 8
                    | bytes[4 * i + 3] & 0xff;
        }
        return BlockHasher.chain(BlockHasher.seed("m"), tokens, tokens.length, BlockHasher.DEFAULT_BLOCK_TOKENS);
    }

    private static Pod pod(String name, PodRole role, String roleset, int i) {
        return new Pod("default", name, "m", "10.0." + (i / 250) + "." + (i % 250), 8000, 8000, "vllm", role, roleset,
                null, 8998, null, Map.of());
    }

    @Benchmark
    public Routed route() {
        Routed routed = session.route(admission, features, "bench", null);
        routed.lease().release();
        return routed;
    }
}
