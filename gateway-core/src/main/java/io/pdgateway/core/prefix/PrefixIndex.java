package io.pdgateway.core.prefix;

import io.pdgateway.core.model.Pod;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which pods recently served which prompt prefixes (reference §7): block hash → pods, bounded by a block count
 * (the oldest-added block goes first) and a time-to-live. Time is passed in. Every method holds the monitor only
 * for in-memory work, never for I/O.
 */
public final class PrefixIndex {
    /** Reference §7: AIBRIX_PREFIX_CACHE_BLOCK_NUMBER defaults to 200000 blocks. */
    public static final int DEFAULT_CAPACITY_BLOCKS = 200_000;
    /** Reference §7: AIBRIX_PREFIX_CACHE_EVICTION_DURATION_MINS defaults to 20 minutes. */
    public static final long DEFAULT_TTL_NANOS = 20L * 60 * 1_000_000_000L;

    private final int capacity;
    private final long ttlNanos;
    private final LinkedHashMap<Long, Block> blocks = new LinkedHashMap<>();

    /** The pods holding one block, with when each was last added. */
    private static final class Block {
        final Map<String, Long> pods = new HashMap<>(4);
        long lastPut;
    }

    public PrefixIndex(int capacityBlocks, long ttlNanos) {
        this.capacity = capacityBlocks;
        this.ttlNanos = ttlNanos;
    }

    /**
     * Match percentage per candidate pod id: a pod matching blocks 0..i of n gets (i+1)*100/n; a pod missing from a
     * block drops out there and keeps what it had. Pods never matched are absent from the result (0 %).
     */
    public synchronized Map<String, Integer> match(long[] hashes, List<Pod> candidates) {
        Map<String, Integer> pct = new HashMap<>();
        Block first = hashes.length == 0 ? null : blocks.get(hashes[0]);
        if (first == null || candidates.isEmpty()) {
            return pct;
        }
        // Only pods holding the first block can match at all; they are few, so start from them rather than from
        // every candidate (which would cost a map entry per candidate on every request).
        Map<String, Boolean> alive = new HashMap<>();
        for (String holder : first.pods.keySet()) {
            for (Pod pod : candidates) {
                if (pod.id().equals(holder)) {
                    alive.put(holder, Boolean.TRUE);
                    break;
                }
            }
        }
        for (int i = 0; i < hashes.length && !alive.isEmpty(); i++) {
            Block block = i == 0 ? first : blocks.get(hashes[i]);
            if (block == null) {
                break;
            }
            int percent = (int) ((i + 1L) * 100 / hashes.length);
            for (Iterator<String> it = alive.keySet().iterator(); it.hasNext(); ) {
                String id = it.next();
                if (block.pods.containsKey(id)) {
                    pct.put(id, percent);
                } else {
                    it.remove();
                }
            }
        }
        return pct;
    }

    /** Records that the pod now holds every block of the prompt. */
    public synchronized void add(long[] hashes, String podId, long nowNanos) {
        for (long hash : hashes) {
            Block block = blocks.remove(hash); // re-insert: a put refreshes the block's place in line
            if (block == null) {
                block = new Block();
            }
            block.pods.put(podId, nowNanos);
            block.lastPut = nowNanos;
            blocks.put(hash, block);
        }
        while (blocks.size() > capacity) {
            Iterator<Long> eldest = blocks.keySet().iterator();
            eldest.next();
            eldest.remove();
        }
    }

    /** Drops blocks not added to for longer than the TTL; the server calls this every second. */
    public synchronized void evictExpired(long nowNanos) {
        for (Iterator<Block> it = blocks.values().iterator(); it.hasNext(); ) {
            Block block = it.next();
            if (nowNanos - block.lastPut <= ttlNanos) {
                break; // insertion order is put order: the rest are younger
            }
            it.remove();
        }
    }

    /** Forgets every pod not in {@code present}, and the blocks only they held. */
    public synchronized void retainOnly(java.util.Set<String> present) {
        for (Iterator<Block> it = blocks.values().iterator(); it.hasNext(); ) {
            Block block = it.next();
            block.pods.keySet().retainAll(present);
            if (block.pods.isEmpty()) {
                it.remove();
            }
        }
    }

    public synchronized int size() {
        return blocks.size();
    }
}
