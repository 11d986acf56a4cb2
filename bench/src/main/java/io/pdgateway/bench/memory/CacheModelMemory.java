package io.pdgateway.bench.memory;

import io.pdgateway.core.cache.CacheHold;
import io.pdgateway.core.cache.CacheModel;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Fills one model's {@link CacheModel} the way routing does (a prompt's blocks held on its pod, then released) until
 * every pod is at capacity with blocks no other pod holds, and measures the heap it then takes after a full GC.
 */
public final class CacheModelMemory {
    private CacheModelMemory() {}

    public record Result(long blocks, int blocksPerPod, long bytes) {
        public double bytesPerBlock() {
            return (double) bytes / blocks;
        }
    }

    public static Result measure(int pods, int capacityBlocks, int promptBlocks) {
        long before = usedAfterGc();
        CacheModel model = new CacheModel();
        SplittableRandom random = new SplittableRandom(1);
        long[] prompt = new long[promptBlocks];
        for (int p = 0; p < pods; p++) {
            Pod pod = new Pod("default", "pod-" + p, "m", "10.0." + (p / 250) + "." + (p % 250), 8000, 8000, "vllm",
                    PodRole.PREFILL, "rs-" + p, null, 8998, null, Map.of());
            for (int held = 0; held < capacityBlocks; held += promptBlocks) {
                for (int i = 0; i < promptBlocks; i++) {
                    prompt[i] = random.nextLong(); // distinct everywhere: nothing shared, the most memory
                }
                CacheHold hold = model.hold(pod, prompt, capacityBlocks);
                model.release(hold);
            }
        }
        long after = usedAfterGc();
        long blocks = model.totalBlocks(); // after the measurement: the model stays reachable through it
        if (blocks == 0) {
            throw new IllegalStateException("the model holds no blocks");
        }
        return new Result(blocks, capacityBlocks, after - before);
    }

    private static long usedAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
