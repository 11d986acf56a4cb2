package io.pdgateway.core.cache;

/**
 * The engine-reported caches of one model ({@link PodCache}, block by block, as KV events edit them), and how many
 * of them hold each block: a pod's view once its events have been live, and before that what its events said so far.
 * A lookup walks the prompt's blocks: the caches holding block 0 start alive, and the alive set is re-checked only
 * where the number of holders changes (caches are prefix-closed, so equal counts mean the same holders), found by a
 * search over the counts rather than block by block, and there only the caches the block's holder marks may name are
 * asked. Not thread-safe: its {@link CacheModel} guards it.
 */
final class ReportedCaches {
    /**
     * The walk's alive set, reused from one lookup to the next; only its first k entries are read. What it still
     * references after a walk are this model's caches of the last lookup, until the next one.
     */
    private PodCache[] alive = new PodCache[0];
    /** Each alive cache's position in the candidate list, and its holder mark. */
    private int[] alivePositions = new int[0];
    private long[] aliveMarks = new long[0];
    /**
     * Block hash → number of caches holding it, and marks of the caches that may ({@link HolderTable}). A walk asks a
     * cache whether it holds a block only when the block's marks have the cache's {@link PodCache#holderMark}.
     */
    private final HolderTable holders = new HolderTable(1024);
    /** Caches made so far (to give the next its holder mark), and how many there are. */
    private int made;
    private int caches;
    private final NodeArrays nodeArrays = new NodeArrays();
    private final PodCache.BlockCounter counter = new PodCache.BlockCounter() {
        @Override
        public void added(long blockHash, long holderMark) {
            holders.add(blockHash, holderMark);
        }

        @Override
        public void removed(long blockHash) {
            holders.remove(blockHash);
        }
    };

    PodCache create(String podId, String address, int capacityBlocks) {
        caches++;
        return new PodCache(podId, address, capacityBlocks, HolderTable.markOf(made++));
    }

    /** The cache leaves the model with its blocks. */
    void discard(PodCache cache) {
        cache.clear(counter);
        caches--;
    }

    /** Caches holding the block (0 when none). */
    int holders(long hash) {
        return holders.count(hash);
    }

    /** Distinct blocks held by at least one cache. */
    int distinctBlocks() {
        return holders.size();
    }

    /**
     * Puts how many leading blocks each of {@code caches} holds into the match: the candidates' caches by position
     * (null where a candidate has none here), their holder marks in {@code cacheMarks}; {@code firstHolders} is
     * {@link #holders} of the prompt's first block.
     */
    void walk(long[] hashes, int firstHolders, PodCache[] caches, long[] cacheMarks, PrefixMatch match) {
        if (alive.length < caches.length) {
            alive = new PodCache[caches.length];
            alivePositions = new int[caches.length];
            aliveMarks = new long[caches.length];
        }
        int k = 0;
        // A first block every cache of the model holds (a shared system prompt) needs no check per pod: a hash probe
        // into each pod's own table, a cache miss per pod at thousands of pods.
        boolean everyCacheHolds = firstHolders == this.caches;
        for (int i = 0; i < caches.length; i++) {
            PodCache cache = caches[i];
            if (cache != null && (everyCacheHolds || cache.contains(hashes[0]))) {
                alivePositions[k] = i;
                aliveMarks[k] = cacheMarks[i];
                alive[k++] = cache;
            }
        }
        int previous = firstHolders;
        int depth = 1;
        while (depth < hashes.length && k > 0) {
            int i = firstChange(hashes, depth, previous);
            depth = i; // blocks before i have the previous holders: the alive caches hold them all
            if (i == hashes.length) {
                break;
            }
            long entry = holders.entry(hashes[i]); // count and marks in one probe
            int count = HolderTable.countIn(entry);
            if (count == 0) {
                break;
            }
            long marks = HolderTable.marksIn(entry);
            int kept = 0;
            for (int a = 0; a < k; a++) {
                if ((aliveMarks[a] & marks) != 0 && alive[a].contains(hashes[i])) {
                    alivePositions[kept] = alivePositions[a];
                    aliveMarks[kept] = aliveMarks[a];
                    alive[kept++] = alive[a];
                } else {
                    match.put(alivePositions[a], alive[a].podId, i);
                }
            }
            k = kept;
            previous = count;
            depth = i + 1;
        }
        for (int a = 0; a < k; a++) {
            match.put(alivePositions[a], alive[a].podId, depth);
        }
    }

    /**
     * The first block at or after {@code from} whose holder count is not {@code count} (the count of block from − 1), or
     * the prompt's length. Caches are prefix-closed, so counts never grow along a prompt: the blocks with the same count
     * are a run, found by doubling the step and then halving it, a few probes per change of holders instead of one per
     * block (an 8,000-token prompt is 500 blocks, most of them in one or two runs).
     */
    private int firstChange(long[] hashes, int from, int count) {
        int same = from - 1; // known to have the count
        int step = 1;
        int differs = hashes.length; // known to differ (or the end)
        while (same + step < hashes.length) {
            int probe = same + step;
            if (holders.count(hashes[probe]) != count) {
                differs = probe;
                break;
            }
            same = probe;
            step <<= 1;
        }
        while (differs - same > 1) {
            int probe = (same + differs) >>> 1;
            if (holders.count(hashes[probe]) == count) {
                same = probe;
            } else {
                differs = probe;
            }
        }
        return differs;
    }

    CacheHold hold(PodCache cache, long[] hashes) {
        int[] nodes = nodeArrays.take(hashes.length);
        cache.add(hashes, hashes.length, nodes, false, counter);
        cache.evictOverflow(counter);
        return new CacheHold(cache, nodes, hashes.length);
    }

    /** Releases the hold's blocks if {@code current} (its cache is still its pod's), and keeps its node array. */
    void release(CacheHold hold, boolean current) {
        if (current) {
            hold.pod.release(hold.nodes, hold.blocks, counter);
            hold.pod.evictOverflow(counter);
        }
        nodeArrays.give(hold.nodes);
    }

    void stored(PodCache cache, long[] hashes) {
        cache.add(hashes, hashes.length, null, true, counter);
        cache.evictOverflow(counter);
    }

    void removed(PodCache cache, long[] hashes) {
        cache.remove(hashes, counter);
    }

    void cleared(PodCache cache) {
        cache.clear(counter);
    }

    void eventsLive(PodCache cache, boolean live) {
        if (live) {
            cache.startEventFed(counter);
        } else {
            cache.stopEventFed(counter);
        }
    }

    void capacity(PodCache cache, int capacityBlocks) {
        cache.capacity(capacityBlocks);
        cache.evictOverflow(counter);
    }
}
