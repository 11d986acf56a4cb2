package io.pdgateway.bench;

import io.pdgateway.bench.memory.CacheModelMemory;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bench cache-memory}: the heap the gateway's prefix-cache model takes for a cluster of full pods. */
@Command(name = "cache-memory", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Fill the gateway's prefix-cache model as if every pod's KV cache were full of distinct prompts "
                + "(no block shared between pods) and report the heap it takes, per block and per "
                + "1,000 pods.")
public final class BenchCacheMemoryCommand implements Callable<Integer> {
    @Option(names = "--pods", defaultValue = "200", description = "Pods to model (default: ${DEFAULT-VALUE}).")
    int pods;

    @Option(names = "--capacity-tokens", defaultValue = "434000",
            description = "Each pod's KV cache in tokens (default: ${DEFAULT-VALUE}, Llama-3-8B on one H100).")
    int capacityTokens;

    @Option(names = "--block-tokens", defaultValue = "16",
            description = "Tokens per block, PD_GATEWAY_PREFIX_CACHE_BLOCK_TOKENS (default: ${DEFAULT-VALUE}).")
    int blockTokens;

    @Option(names = "--prompt-tokens", defaultValue = "8192",
            description = "Tokens of each prompt that fills the caches (default: ${DEFAULT-VALUE}).")
    int promptTokens;

    @Override
    public Integer call() {
        CacheModelMemory.Result r = CacheModelMemory.measure(pods, capacityTokens / blockTokens,
                Math.max(1, promptTokens / blockTokens));
        System.out.printf(Locale.ROOT, "prefix-cache model: %d pods x %,d blocks of %d tokens = %,d blocks held%n",
                pods, r.blocksPerPod(), blockTokens, r.blocks());
        System.out.printf(Locale.ROOT, "heap: %,.1f MB, %.1f bytes per block, %.2f MB per full pod, %.2f GB per "
                + "1,000 full pods%n", r.bytes() / 1e6, r.bytesPerBlock(), r.bytesPerBlock() * r.blocksPerPod() / 1e6,
                r.bytesPerBlock() * r.blocksPerPod() * 1000 / 1e9);
        return 0;
    }
}
