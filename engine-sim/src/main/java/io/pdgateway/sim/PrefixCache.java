package io.pdgateway.sim;

import io.pdgateway.sim.kvevents.KvCacheEventSink;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pod's prefix cache: full KV blocks keyed by their chained hash, least recently used evicted first,
 * bounded by the KV capacity in blocks. A hit is the run of leading blocks present, so hits land on
 * multiples of the block size as in vLLM (engine-timing.md §3.3, §5). Lives on the pod's event loop.
 *
 * <p>Every change is told to a {@link KvCacheEventSink} as vLLM reports it: blocks newly cached as one BlockStored
 * per run (with the parent block's hash and the blocks' token ids), evicted blocks as BlockRemoved, a flush as
 * AllBlocksCleared. {@link #publish} sends what accumulated as one batch, once per engine step. Prompts counted from
 * text rather than token ids (a pod without KV events) are not reported: they have no token ids.
 */
public final class PrefixCache {

    private final int blockSize;
    private final LinkedHashMap<Long, Boolean> blocks;
    private final KvCacheEventSink events;
    private final List<Long> evicted = new ArrayList<>();

    public PrefixCache(int capacityBlocks, int blockSize) {
        this(capacityBlocks, blockSize, KvCacheEventSink.NONE);
    }

    public PrefixCache(int capacityBlocks, int blockSize, KvCacheEventSink events) {
        this.blockSize = blockSize;
        this.events = events;
        this.blocks = new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                boolean evict = size() > capacityBlocks;
                if (evict) {
                    evicted.add(eldest.getKey());
                }
                return evict;
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

    /** Forgets every block (SGLang's /flush_cache), and says so at once. */
    public void clear() {
        blocks.clear();
        evicted.clear();
        events.cleared();
        events.flush();
    }

    /** Remembers every full block of a prompt whose prefill finished. */
    void insert(PromptTokens prompt) {
        long[] ids = prompt.idsView();
        int runStart = -1;
        for (int i = 0; i < prompt.fullBlocks(); i++) {
            boolean isNew = blocks.put(prompt.blockHash(i), Boolean.TRUE) == null;
            if (isNew && runStart < 0) {
                runStart = i;
            } else if (!isNew && runStart >= 0) {
                report(prompt, ids, runStart, i);
                runStart = -1;
            }
        }
        if (runStart >= 0) {
            report(prompt, ids, runStart, prompt.fullBlocks());
        }
    }

    /** Publishes the events since the last call as one batch (the end of an engine step). */
    void publish() {
        flushEvictions();
        events.flush();
    }

    /** One BlockStored for blocks [from, to), after the evictions that made room for them. */
    private void report(PromptTokens prompt, long[] ids, int from, int to) {
        flushEvictions();
        if (ids == null) {
            return;
        }
        long[] hashes = new long[to - from];
        int[] tokens = new int[hashes.length * blockSize];
        for (int b = from; b < to; b++) {
            hashes[b - from] = prompt.blockHash(b);
            for (int t = 0; t < blockSize; t++) {
                tokens[(b - from) * blockSize + t] = (int) ids[b * blockSize + t];
            }
        }
        events.stored(hashes, from == 0 ? null : prompt.blockHash(from - 1), tokens, blockSize);
    }

    private void flushEvictions() {
        if (!evicted.isEmpty()) {
            long[] gone = evicted.stream().mapToLong(Long::longValue).toArray();
            evicted.clear();
            events.removed(gone);
        }
    }

    /** Blocks held now. */
    public int size() {
        return blocks.size();
    }
}
