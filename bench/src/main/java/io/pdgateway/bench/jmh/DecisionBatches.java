package io.pdgateway.bench.jmh;

import com.sun.management.ThreadMXBean;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.session.Admission;
import io.pdgateway.core.session.PromptFeatures;
import io.pdgateway.core.session.Routed;
import io.pdgateway.core.session.RoutingSession;
import io.pdgateway.core.session.SessionClock;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntToLongFunction;

/**
 * The routing decisions the benchmarks time ({@link RoutingDecisionBenchmark} with JMH, {@link DecisionCpuTime} by CPU
 * clock, {@link PairedBuilds} two builds side by side), set up once here: one model of N pods in 1P1D rolesets with
 * earlier traffic in flight ({@link BenchModel}), and the measured request, a new conversation turn each time or one
 * prompt again and again. {@code applyAsLong(n)} makes n decisions and returns the thread's CPU nanoseconds for them;
 * only JDK types cross that boundary, so a copy of this class defined in another build's class loader drives that
 * build's classes.
 */
public final class DecisionBatches implements IntToLongFunction {
    private final RoutingSession session;
    private final Admission admission;
    private final PromptFeatures repeated;
    private final BenchModel.NewTurns turns;
    private final ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();

    public DecisionBatches(int pods, String policies, int promptTokens, boolean newTurns) {
        Map<String, PodMetrics> metrics = new HashMap<>();
        BenchModel model = new BenchModel("m", pods, promptTokens, new SplittableRandom(42), metrics);
        ClusterSnapshot snapshot = ClusterSnapshot.of(model.pods);
        String[] parts = policies.split("/");
        GatewaySettings settings = GatewaySettings.fromEnv(Map.of("ROUTING_ALGORITHM", "pd",
                "AIBRIX_PREFILL_SCORE_POLICY", parts[0], "AIBRIX_DECODE_SCORE_POLICY", parts[1]));
        session = RoutingSession.create(settings.routing(), () -> snapshot, BenchModel.store(metrics),
                SessionClock.SYSTEM, 7, warning -> { });
        admission = session.admit(model.name, null, null);
        model.warm(session, admission);
        repeated = model.nextTurn();
        turns = newTurns ? model.newTurns() : null;
    }

    /** The next request: a new turn's features, rewritten in place (allocates nothing), or the repeated prompt's. */
    public PromptFeatures next() {
        return turns == null ? repeated : turns.next();
    }

    /** One decision, its lease released at once. */
    public Routed decide(PromptFeatures request) {
        Routed routed = session.route(admission, request, "bench", null);
        routed.lease().release();
        return routed;
    }

    @Override
    public long applyAsLong(int decisions) {
        long start = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < decisions; i++) {
            decide(next());
        }
        return threads.getCurrentThreadCpuTime() - start;
    }
}
