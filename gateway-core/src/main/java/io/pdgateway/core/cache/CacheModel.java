package io.pdgateway.core.cache;

import io.pdgateway.core.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The gateway's picture of one model's prefix caches: one {@link PodCache} per pod that computes prompts, with the
 * pod's real capacity, plus how many pods hold each block. Updated when a request is routed (its prompt's blocks are
 * referenced on the pod that computes them), when it ends (they become free, most recent first) and when an engine
 * reports what it stored or evicted; a pod that leaves discovery is dropped whole.
 *
 * <p>A lookup walks the prompt's blocks: the pods holding block 0 start alive, and the alive set is re-checked only
 * where the number of holders changes (caches are prefix-closed, so equal counts mean the same holders), found by a
 * search over the counts rather than block by block, and there only the pods the block's holder marks may name are
 * asked. A shared system prompt held by some pods costs one check per pod, not one per pod and block, and none when
 * every cache of the model holds its first block. Thread-safe: every method holds this model's monitor for in-memory
 * work only.
 */
public final class CacheModel {
    private final Map<String, PodCache> pods = new HashMap<>();
    /** Changes whenever a cache is added to or removed from {@link #pods}. */
    private int cachesVersion;
    /** The last {@link #resolve} answer, for that list at that version. */
    private List<Pod> resolvedFor;
    private int resolvedVersion;
    private PodCache[] resolved;
    /** The holder mark of each of {@link #resolved} (0 for none). */
    private long[] resolvedMarks;
    /**
     * The walk's alive set, reused from one lookup to the next (under this monitor); only its first k entries are read.
     * What it still references after a walk are this model's caches of the last lookup, until the next one.
     */
    private PodCache[] alive = new PodCache[0];
    /** Each alive cache's position in the candidate list, and its holder mark. */
    private int[] alivePositions = new int[0];
    private long[] aliveMarks = new long[0];
    /**
     * Block hash → number of pods holding it, and marks of the pods that may ({@link HolderTable}). A walk asks a pod
     * whether it holds a block only when the block's marks have the pod's {@link PodCache#holderMark}: where 32 of
     * 2,048 pods hold a conversation after a shared system prompt, about half the pods' tables instead of all.
     */
    private final HolderTable holders = new HolderTable(1024);
    /** Caches made so far, to give the next one its holder mark. */
    private int cachesMade;
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

    /** How many leading blocks of the prompt each candidate holds ({@code blockTokens} tokens each). */
    public PrefixMatch match(long[] hashes, List<Pod> candidates, int blockTokens) {
        return match(hashes, candidates, blockTokens, null);
    }

    /**
     * As {@link #match(long[], List, int)}, refilling {@code reuse} (a {@link PrefixMatch#reusable()}, or null for a
     * new match) rather than allocating the table.
     */
    public PrefixMatch match(long[] hashes, List<Pod> candidates, int blockTokens, PrefixMatch reuse) {
        return match(hashes, candidates, blockTokens, reuse, null);
    }

    /**
     * As {@link #match(long[], List, int, PrefixMatch)}; with {@code positions} (a pod's position in
     * {@code candidates}, -1 for none) and a {@code reuse}, the match keeps the blocks by candidate position.
     */
    public synchronized PrefixMatch match(long[] hashes, List<Pod> candidates, int blockTokens, PrefixMatch reuse,
            ToIntFunction<Pod> positions) {
        if (hashes.length == 0 || holders.count(hashes[0]) == 0) {
            return PrefixMatch.NONE;
        }
        PodCache[] caches = resolve(candidates);
        if (alive.length < caches.length) {
            alive = new PodCache[caches.length];
            alivePositions = new int[caches.length];
            aliveMarks = new long[caches.length];
        }
        return walk(hashes, candidates, caches, blockTokens, reuse, positions);
    }

    private PrefixMatch walk(long[] hashes, List<Pod> candidates, PodCache[] caches, int blockTokens,
            PrefixMatch reuse, ToIntFunction<Pod> positions) {
        int k = 0;
        // A first block every cache of the model holds (a shared system prompt) needs no check per pod: a hash probe
        // into each pod's own table, a cache miss per pod at thousands of pods.
        boolean everyCacheHolds = holders.count(hashes[0]) == pods.size();
        for (int i = 0; i < caches.length; i++) {
            PodCache cache = caches[i];
            if (cache != null && (everyCacheHolds || cache.contains(hashes[0]))) {
                alivePositions[k] = i;
                aliveMarks[k] = resolvedMarks[i];
                alive[k++] = cache;
            }
        }
        if (k == 0) {
            return PrefixMatch.NONE;
        }
        PrefixMatch match = reuse == null ? PrefixMatch.forPods(hashes.length, blockTokens, k)
                : positions == null ? reuse.refill(hashes.length, blockTokens, k)
                : reuse.refill(hashes.length, blockTokens, candidates, positions);
        int previous = holders.count(hashes[0]);
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
                    match.put(alivePositions[a], alive[a], i);
                }
            }
            k = kept;
            previous = count;
            depth = i + 1;
        }
        for (int a = 0; a < k; a++) {
            match.put(alivePositions[a], alive[a], depth);
        }
        return match;
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

    /**
     * The pod now computes (and will cache) the prompt's blocks: they are referenced until {@link #release}, and the
     * pod's least recent free blocks are evicted if it is over its capacity.
     */
    public synchronized CacheHold hold(Pod pod, long[] hashes, int capacityBlocks) {
        if (hashes.length == 0) {
            return CacheHold.NONE;
        }
        PodCache cache = cacheOf(pod.id(), pod.address(), capacityBlocks);
        int[] nodes = nodeArrays.take(hashes.length);
        cache.add(hashes, hashes.length, nodes, false, counter);
        cache.evictOverflow(counter);
        return new CacheHold(cache, nodes, hashes.length);
    }

    /** The request ended: its blocks stay cached, now free and most recent. Idempotent. */
    public synchronized void release(CacheHold hold) {
        if (hold.released || hold.pod == null) {
            return;
        }
        hold.released = true;
        if (pods.get(hold.pod.podId) == hold.pod) { // else the pod left (or was re-created) since
            hold.pod.release(hold.nodes, hold.blocks, counter);
            hold.pod.evictOverflow(counter);
        }
        nodeArrays.give(hold.nodes);
    }

    /** The pod's engine reports it stored these blocks (prefix order): they are its most recent free blocks. */
    public synchronized void stored(String podId, String address, long[] hashes, int capacityBlocks) {
        PodCache cache = cacheOf(podId, address, capacityBlocks);
        cache.add(hashes, hashes.length, null, true, counter);
        cache.evictOverflow(counter);
    }

    /**
     * The pod's engine events are live (its view becomes event-fed, see {@link PodCache}) or stopped (its view falls
     * back to the gateway's model, starting from what the engine last reported).
     */
    public synchronized void eventsLive(String podId, String address, int capacityBlocks, boolean live) {
        PodCache cache = live ? cacheOf(podId, address, capacityBlocks) : pods.get(podId);
        if (cache == null || cache.eventFed() == live) {
            return;
        }
        if (live) {
            cache.startEventFed(counter);
        } else {
            cache.stopEventFed(counter);
        }
    }

    /** Whether the pod's view follows its engine's events now. */
    public synchronized boolean eventFed(String podId) {
        PodCache cache = pods.get(podId);
        return cache != null && cache.eventFed();
    }

    /** The pod's engine reports it evicted these blocks. */
    public synchronized void removed(String podId, long[] hashes) {
        PodCache cache = pods.get(podId);
        if (cache != null) {
            cache.remove(hashes, counter);
        }
    }

    /** The pod's engine dropped its whole cache. */
    public synchronized void cleared(String podId) {
        PodCache cache = pods.get(podId);
        if (cache != null) {
            cache.clear(counter);
        }
    }

    /** Sets each known pod's capacity (its engine reported one, or the setting changed). */
    public synchronized void capacity(String podId, int capacityBlocks) {
        PodCache cache = pods.get(podId);
        if (cache != null && cache.capacity() != capacityBlocks) {
            cache.capacity(capacityBlocks);
            cache.evictOverflow(counter);
        }
    }

    /** Drops every pod not in {@code present} (id → address) or back at another address; returns their ids. */
    public synchronized List<String> retainOnly(Map<String, String> present) {
        List<String> dropped = new ArrayList<>();
        for (Iterator<PodCache> it = pods.values().iterator(); it.hasNext(); ) {
            PodCache cache = it.next();
            if (!cache.address.equals(present.get(cache.podId))) {
                cache.clear(counter);
                it.remove();
                cachesVersion++;
                dropped.add(cache.podId);
            }
        }
        return dropped;
    }

    /** Blocks the pod holds in the model (0 when unknown). */
    public synchronized int blocks(String podId) {
        PodCache cache = pods.get(podId);
        return cache == null ? 0 : cache.size();
    }

    /** Blocks held over every pod: what the model's memory scales with. */
    public synchronized long totalBlocks() {
        long total = 0;
        for (PodCache cache : pods.values()) {
            total += cache.size();
        }
        return total;
    }

    /** Distinct blocks held by at least one pod. */
    public synchronized int distinctBlocks() {
        return holders.size();
    }

    public synchronized boolean hasPod(String podId) {
        return pods.containsKey(podId);
    }

    /**
     * Each candidate's cache (null when the model holds none for it, or holds an earlier pod's of the same name),
     * aligned with the list. Decisions pass the same list (their snapshot's) over and over, so the answer is kept
     * until the list or the set of caches changes: a map lookup and an address comparison per pod per decision saved.
     */
    private PodCache[] resolve(List<Pod> candidates) {
        if (candidates == resolvedFor && cachesVersion == resolvedVersion) {
            return resolved;
        }
        PodCache[] caches = new PodCache[candidates.size()];
        long[] marks = new long[caches.length];
        for (int i = 0; i < caches.length; i++) {
            Pod pod = candidates.get(i);
            PodCache cache = pods.get(pod.id());
            caches[i] = cache != null && cache.address.equals(pod.address()) ? cache : null;
            marks[i] = caches[i] == null ? 0 : caches[i].holderMark;
        }
        resolved = caches;
        resolvedMarks = marks;
        resolvedFor = candidates;
        resolvedVersion = cachesVersion;
        return caches;
    }

    private PodCache cacheOf(String podId, String address, int capacityBlocks) {
        PodCache cache = pods.get(podId);
        if (cache != null && cache.address.equals(address)) {
            return cache;
        }
        if (cache != null) {
            cache.clear(counter); // another pod under the same name: the old one's blocks are not its
        }
        PodCache fresh = new PodCache(podId, address, capacityBlocks, HolderTable.markOf(cachesMade++));
        pods.put(podId, fresh);
        cachesVersion++;
        return fresh;
    }
}
