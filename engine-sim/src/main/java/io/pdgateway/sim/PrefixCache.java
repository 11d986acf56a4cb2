package io.pdgateway.sim;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The pod's prefix cache: full KV blocks keyed by their chained hash, least recently used evicted first,
 * bounded by the KV capacity in blocks. A hit is the run of leading blocks present, so hits land on
 * multiples of the block size as in vLLM (engine-timing.md §3.3, §5). Lives on the pod's event loop.
 */
public final class PrefixCache {

    private final int blockSize;
    private final LinkedHashMap<Long, Boolean> blocks;

    public PrefixCache(int capacityBlocks, int blockSize) {
        this.blockSize = blockSize;
        this.blocks = new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                return size() > capacityBlocks;
            }
        };
    }

    /** Tokens of {@code prompt} already cached: leading full blocks found, times the block size. */
    int cachedTokens(PromptTokens prompt) {
        int hit = 0;
        while (hit < prompt.fullBlocks() && blocks.get(prompt.blockHash(hit)) != null) {
            hit++;
        }
        return hit * blockSize;
    }

    /** Forgets every block (SGLang's /flush_cache). */
    public void clear() {
        blocks.clear();
    }

    /** Remembers every full block of a prompt whose prefill finished. */
    void insert(PromptTokens prompt) {
        for (int i = 0; i < prompt.fullBlocks(); i++) {
            blocks.put(prompt.blockHash(i), Boolean.TRUE);
        }
    }
}
