package io.pdgateway.bench.jmh;

import com.sun.management.ThreadMXBean;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.session.Admission;
import io.pdgateway.core.session.RoutingSession;
import io.pdgateway.core.session.SessionClock;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntToLongFunction;

/**
 * {@link DecisionCpuTime}'s decisions in batches, for {@link PairedBuilds}: set up as there (the same model, load
 * and new turns), {@code applyAsLong(n)} makes n decisions and returns the thread's CPU nanoseconds for them. Only JDK
 * types cross its boundary, so a copy of it defined in another build's class loader drives that build's classes.
 */
public final class DecisionBatches implements IntToLongFunction {
    private final RoutingSession session;
    private final Admission admission;
    private final BenchModel.NewTurns turns;
    private final ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();

    public DecisionBatches(int pods, String policies, int promptTokens) {
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
        turns = model.newTurns();
    }

    @Override
    public long applyAsLong(int decisions) {
        long start = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < decisions; i++) {
            session.route(admission, turns.next(), "bench", null).lease().release();
        }
        return threads.getCurrentThreadCpuTime() - start;
    }
}
