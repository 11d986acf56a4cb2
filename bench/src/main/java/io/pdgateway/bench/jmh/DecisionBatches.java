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
 * build's classes (it is the session's clock itself for the same reason: a class of its own would not be there).
 *
 * <p>The session's time advances by a fixed interval a decision, not with the machine's clock. On the machine's clock
 * the state the decisions met depended on how fast they ran: predicted_ttft's idle pods' models fade, its demand
 * counts and the queued work of the earlier traffic's legs all move with elapsed time, and at 70,000 decisions a
 * second a run took one of two paths by a race in its first milliseconds (every new turn to the one pod that held the
 * conversation, p50 11.1-11.5 µs at 512 pods and 8k tokens, or each to another of about 220 pods holding it, p50
 * 13.0-13.5 µs and a heavier tail). With its own clock every run makes the same decisions, at a production-like pace
 * (and, at 500 µs, takes the second path).
 */
public final class DecisionBatches implements IntToLongFunction, SessionClock {
    /**
     * The session's time between two decisions: {@code -Dpdgateway.bench.decisionMicros}, 500 by default (2,000
     * decisions a second for the model, about 8 a second per prefill pod at 512 pods), or {@code system} for the
     * machine's clock, as the benchmarks ran before 2026-12-06.
     */
    static final String INTERVAL_PROPERTY = "pdgateway.bench.decisionMicros";
    /**
     * Where the session's own time starts, the same in every run: the session counts prefix demand in windows of the
     * clock's absolute time, so two runs starting where the machine's clock happened to read turned a window at
     * different decisions, and made different ones there (DecisionBatchesTest failed once that way).
     */
    static final long START_NANOS = 1L << 40;
    /** Negative: the machine's clock. */
    private final long intervalNanos;
    private long nowNanos;
    private final long epochOffsetNanos;
    private final RoutingSession session;
    private final Admission admission;
    private final PromptFeatures repeated;
    private final BenchModel.NewTurns turns;
    private final ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();

    public DecisionBatches(int pods, String policies, int promptTokens, boolean newTurns) {
        this(pods, policies, promptTokens, newTurns, intervalNanos(System.getProperty(INTERVAL_PROPERTY, "500")));
    }

    /** @param intervalNanos the session's time between two decisions; negative for the machine's clock */
    DecisionBatches(int pods, String policies, int promptTokens, boolean newTurns, long intervalNanos) {
        this(pods, policies, promptTokens, newTurns, intervalNanos, START_NANOS);
    }

    DecisionBatches(int pods, String policies, int promptTokens, boolean newTurns, long intervalNanos,
            long startNanos) {
        this.intervalNanos = intervalNanos;
        this.nowNanos = startNanos;
        this.epochOffsetNanos = System.currentTimeMillis() * 1_000_000L - startNanos;
        Map<String, PodMetrics> metrics = new HashMap<>();
        BenchModel model = new BenchModel("m", pods, promptTokens, new SplittableRandom(42), metrics);
        ClusterSnapshot snapshot = ClusterSnapshot.of(model.pods);
        String[] parts = policies.split("/");
        GatewaySettings settings = GatewaySettings.fromEnv(Map.of("ROUTING_ALGORITHM", "pd",
                "AIBRIX_PREFILL_SCORE_POLICY", parts[0], "AIBRIX_DECODE_SCORE_POLICY", parts[1]));
        session = RoutingSession.create(settings.routing(), () -> snapshot, BenchModel.store(metrics),
                intervalNanos < 0 ? SessionClock.SYSTEM : this, 7, warning -> { });
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
        if (intervalNanos > 0) {
            nowNanos += intervalNanos;
        }
        Routed routed = session.route(admission, request, "bench", null);
        routed.lease().release();
        return routed;
    }

    private static long intervalNanos(String micros) {
        return micros.equals("system") ? -1 : Long.parseLong(micros) * 1000;
    }

    /** The session's clock: the decisions' own time, {@link #INTERVAL_PROPERTY} apart. */
    @Override
    public long nanoTime() {
        return nowNanos;
    }

    @Override
    public long epochMillis() {
        return (nowNanos + epochOffsetNanos) / 1_000_000L;
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
