package io.pdgateway.bench.jmh;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.TokenLedger;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.core.model.RoutingConfig;
import io.pdgateway.core.prefix.PrefixHasher;
import io.pdgateway.core.prefix.PrefixIndex;
import io.pdgateway.core.routing.ClusterLoad;
import io.pdgateway.core.routing.PdCascade;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RouteRequest;
import io.pdgateway.core.routing.Router;
import io.pdgateway.core.routing.RoutingContext;
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
 * One pd routing decision (the whole cascade, steps 0-5) over a model of N pods in N/2 rolesets, with live-looking
 * load: random in-flight counts, running counts and engine metrics, and a prefix index holding earlier prompts.
 * The request is a 1000-token prompt (4000 characters, 1000 prefix blocks).
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

    @Param({"prefix_cache/load_balancing", "least_request/least_request", "conductor/conductor"})
    String policies;

    private Router router;
    private ModelPods model;
    private RouteRequest request;
    private ClusterLoad load;
    private PrefixIndex index;
    private SplittableRandom random;

    @Setup
    public void setUp() {
        SplittableRandom seed = new SplittableRandom(42);
        List<Pod> list = new ArrayList<>();
        for (int i = 0; i < pods / 2; i++) {
            list.add(pod("p" + i, PodRole.PREFILL, "rs" + i, i));
            list.add(pod("d" + i, PodRole.DECODE, "rs" + i, i));
        }
        model = ModelPods.of("m", list);
        RequestLedger ledger = new RequestLedger();
        Map<String, PodMetrics> metrics = new HashMap<>();
        for (Pod pod : list) {
            int charges = seed.nextInt(4);
            for (int c = 0; c < charges; c++) {
                Pod decode = pod.role() == PodRole.PREFILL ? list.get(list.indexOf(pod) + 1) : pod;
                ledger.charge(pod.role() == PodRole.PREFILL
                        ? RouteDecision.pair(pod, decode, "bench", "bench", Map.of())
                        : RouteDecision.single(pod, io.pdgateway.core.routing.Verdict.SINGLE_POD_SELECTED, "bench",
                                "bench", "bench"));
            }
            metrics.put(pod.id(), new PodMetrics(seed.nextInt(5), Double.NaN, Double.NaN, seed.nextDouble(),
                    seed.nextDouble(2000), 20 + seed.nextDouble(20), 0));
        }
        load = new ClusterLoad(ledger, new TokenLedger(), pod -> metrics.get(pod.id()), 0);
        index = new PrefixIndex(PrefixIndex.DEFAULT_CAPACITY_BLOCKS, Long.MAX_VALUE);
        String prompt = "word ".repeat(800);
        for (int i = 0; i < Math.min(pods / 2, 64); i++) {
            index.add(hash("system prompt " + i + " " + prompt), "default/p" + i, 0);
        }
        String[] parts = policies.split("/");
        PdKnobs knobs = GatewaySettings.defaults().pd().overriddenBy(new RoutingConfig(0, 0, false, null, null,
                Map.of("prefillScorePolicy", parts[0], "decodeScorePolicy", parts[1]))).knobs();
        request = new RouteRequest("m", "bench", 1000, "pd", null, knobs, hash("system prompt 3 " + prompt), null);
        router = new Router(new PdCascade(false));
        random = new SplittableRandom(7);
    }

    private static long[] hash(String text) {
        return PrefixHasher.hash("m", text.getBytes(StandardCharsets.UTF_8), PrefixHasher.DEFAULT_BLOCK_SIZE);
    }

    private static Pod pod(String name, PodRole role, String roleset, int i) {
        return new Pod("default", name, "m", "10.0." + (i / 250) + "." + (i % 250), 8000, 8000, "vllm", role, roleset,
                null, 8998, null, Map.of());
    }

    @Benchmark
    public RouteDecision route() {
        return router.route(new RoutingContext(request, load, index, random, 1), model);
    }
}
