package io.pdgateway.bench.jmh;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.session.Admission;
import io.pdgateway.core.session.PromptFeatures;
import io.pdgateway.core.session.Routed;
import io.pdgateway.core.session.RoutingSession;
import io.pdgateway.core.session.SessionClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
 * Decisions of several threads through one {@link RoutingSession}, as the server's event loops make them: each thread
 * routes one model's requests ({@code lanes=distinct}: thread i routes model i of eight) or every thread routes the
 * same model ({@code lanes=shared}). Run it at 1, 2 and 8 threads ({@code -t}): with distinct models the decisions
 * share no lock, so throughput grows with the cores the machine has; with one model they take turns on its lock.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LaneScalingBenchmark {
    static final int MODELS = 8;

    /** Pods per model. */
    @Param({"512"})
    int pods;

    @Param({"prefix_cache/load_balancing", "hybrid_cache_load/token_load", "predicted_ttft/token_load"})
    String policies;

    @Param({"1000"})
    int promptTokens;

    @Param({"distinct", "shared"})
    String lanes;

    private RoutingSession session;
    private final List<Admission> admissions = new ArrayList<>();
    private final List<PromptFeatures> requests = new ArrayList<>();
    private final AtomicInteger nextThread = new AtomicInteger();

    @Setup
    public void setUp() {
        Map<String, PodMetrics> metrics = new ConcurrentHashMap<>();
        SplittableRandom seed = new SplittableRandom(42);
        List<BenchModel> models = new ArrayList<>();
        List<Pod> all = new ArrayList<>();
        for (int m = 0; m < MODELS; m++) {
            BenchModel model = new BenchModel("m" + m, pods, promptTokens, seed, metrics);
            models.add(model);
            all.addAll(model.pods);
        }
        ClusterSnapshot snapshot = ClusterSnapshot.of(all);
        String[] parts = policies.split("/");
        GatewaySettings settings = GatewaySettings.fromEnv(Map.of("ROUTING_ALGORITHM", "pd",
                "AIBRIX_PREFILL_SCORE_POLICY", parts[0], "AIBRIX_DECODE_SCORE_POLICY", parts[1]));
        session = RoutingSession.create(settings.routing(), () -> snapshot, BenchModel.store(metrics),
                SessionClock.SYSTEM, 7, warning -> { });
        for (BenchModel model : models) {
            Admission admission = session.admit(model.name, null, null);
            model.warm(session, admission);
            admissions.add(admission);
            requests.add(model.nextTurn());
        }
    }

    /** The model one benchmark thread routes. */
    @State(Scope.Thread)
    public static class Lane {
        int model;

        @Setup
        public void setUp(LaneScalingBenchmark benchmark) {
            model = "shared".equals(benchmark.lanes) ? 0 : benchmark.nextThread.getAndIncrement() % MODELS;
        }
    }

    @Benchmark
    public Routed route(Lane lane) {
        Routed routed = session.route(admissions.get(lane.model), requests.get(lane.model), "bench", null);
        routed.lease().release();
        return routed;
    }
}
