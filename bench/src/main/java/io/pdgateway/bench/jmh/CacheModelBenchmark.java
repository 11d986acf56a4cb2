package io.pdgateway.bench.jmh;

import io.pdgateway.core.cache.CacheHold;
import io.pdgateway.core.cache.CacheModel;
import io.pdgateway.core.cache.PrefixMatch;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.core.model.PodSlots;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;
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
 * The prefix-cache model's two costs in a cache-aware decision, apart from the rest of it: the lookup (how many of an
 * 8,000-token prompt's 500 blocks each of {@code pods} pods holds) and the hold and release of the prompt's blocks on
 * the pod that computes it. Every pod caches one shared system prompt (the first quarter of a prompt) and conversations
 * of its own; the measured prompt's conversation is cached by {@code holders} of them picked at random, as
 * {@link BenchModel}'s measured turn is at 4,096 pods (32), so the walk finds every pod alive after the system prompt
 * and those few still alive after it. The lookup keeps its answer by candidate position, as decisions do. The holding
 * pod already caches the prompt (a conversation's next turn), so the hold finds every block and takes it off the pod's
 * eviction order, and the release puts it back. {@link #holdNewTurnAndRelease} is the turn as chat sends it: its last
 * tenth is new every time, so the hold also adds 50 blocks to the pod, which is full, and evicts as many.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class CacheModelBenchmark {
    private static final int BLOCKS = 500;
    private static final int SYSTEM_BLOCKS = BLOCKS / 4;
    /** Conversations each pod caches besides the measured one. */
    private static final int OWN_CONVERSATIONS = 4;

    @Param({"256", "2048"})
    int pods;

    @Param({"32"})
    int holders;

    private CacheModel cache;
    private List<Pod> candidates;
    private ToIntFunction<Pod> positions;
    private Pod holding;
    private long[] measured;
    private PrefixMatch reuse;
    private int capacity;
    /** The measured prompt with a new last tenth each time, rewritten in place. */
    private long[] newTurn;
    private long turn;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(7);
        cache = new CacheModel();
        reuse = PrefixMatch.reusable();
        capacity = (OWN_CONVERSATIONS + 2) * BLOCKS;
        long[] system = random.longs(SYSTEM_BLOCKS).toArray();
        measured = conversation(system, random);
        List<Pod> all = new ArrayList<>();
        for (int p = 0; p < pods; p++) {
            String address = "10.0." + p / 250 + "." + p % 250;
            all.add(new Pod("default", "p" + p, "m", address, 8000, 8000, "vllm", PodRole.PREFILL, "rs" + p, null,
                    8998, null, Map.of()));
            all.add(new Pod("default", "d" + p, "m", address, 8001, 8001, "vllm", PodRole.DECODE, "rs" + p, null,
                    8998, null, Map.of()));
        }
        ModelPods snapshot = ModelPods.of("m", all);
        candidates = snapshot.computingPods();
        positions = new PodSlots(snapshot).computingPositions();
        for (Pod pod : candidates) {
            for (int c = 0; c < OWN_CONVERSATIONS; c++) {
                cache.release(cache.hold(pod, conversation(system, random), capacity));
            }
        }
        for (int h = 0; h < holders; h++) {
            holding = candidates.get(random.nextInt(candidates.size()));
            cache.release(cache.hold(holding, measured, capacity));
        }
        newTurn = measured.clone();
    }

    private static long[] conversation(long[] system, SplittableRandom random) {
        long[] prompt = random.longs(BLOCKS).toArray();
        System.arraycopy(system, 0, prompt, 0, system.length);
        return prompt;
    }

    @Benchmark
    public PrefixMatch match() {
        return cache.match(measured, candidates, 16, reuse, positions);
    }

    @Benchmark
    public CacheHold holdAndRelease() {
        CacheHold hold = cache.hold(holding, measured, capacity);
        cache.release(hold);
        return hold;
    }

    @Benchmark
    public CacheHold holdNewTurnAndRelease() {
        BenchModel.NewTurns.renew(newTurn, ++turn); // this turn's own blocks, as the decision benchmarks' turns
        CacheHold hold = cache.hold(holding, newTurn, capacity);
        cache.release(hold);
        return hold;
    }
}
