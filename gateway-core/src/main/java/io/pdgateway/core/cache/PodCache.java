package io.pdgateway.core.cache;

import java.util.Arrays;

/**
 * What one pod's engine holds in its prefix cache, block by block, as its KV events report it (the cache of a pod
 * whose events have been live; a modelled pod's view is its part of its model's {@link PrefixTree}): blocks (by
 * {@link BlockHasher} hash),
 * each referenced by the requests using it or, once free, in least-recently-used order, evicted from the least recent
 * end when the pod is over its capacity, as vLLM evicts (free blocks are reused oldest first). Blocks of one request
 * are freed deepest first, so a prefix block is always at least as recent as the blocks after it and the cache stays
 * prefix-closed: a pod that holds block i holds blocks 0..i-1 too.
 *
 * <p>Nodes live in parallel primitive arrays indexed by a node number (about 40 bytes per block held, including this
 * pod's hash table), reused through a free list. A block that leaves the view while requests still reference it (an
 * engine event removed it, or the pod's cache was cleared) leaves its node <em>orphaned</em>: out of the hash table and
 * the count, but not reused until its last request releases it, so a {@link CacheHold}'s node numbers stay its own
 * for as long as it holds them and a release can never touch a node that now holds another block. Not thread-safe: its
 * {@link CacheModel} guards it.
 *
 * <p>Two modes. Modelled (before the pod's events are live, and after they stop): the gateway's own guess from what the
 * engine last reported, as above, evicting by capacity. Event-fed (while the pod's engine KV-event stream is live):
 * what the engine reported is the truth. Blocks it stored are
 * <em>confirmed</em>; blocks it removed go, referenced or not; nothing is evicted by capacity (the engine says what it
 * evicts). A block a routed request references but the engine has not reported yet is <em>pending</em>: the engine is
 * computing it, so it counts for the next decision; if the request ends before the engine confirms it, it goes.
 */
final class PodCache {
    static final int NIL = -1;
    /** {@link #prev} of an orphaned node (referenced, but no longer in the view); a referenced live node's is NIL. */
    private static final int ORPHAN = -2;

    final String podId;
    final String address;
    /** This pod's bit in the model's holder marks ({@link HolderTable#markOf}). */
    final long holderMark;
    private int capacityBlocks;
    private final BlockTable table = new BlockTable(64);
    private long[] hash = new long[64];
    private int[] refs = new int[64];
    private int[] prev = new int[64];
    private int[] next = new int[64];
    private boolean[] confirmed = new boolean[64];
    private boolean eventFed;
    private int used;
    private int freeList = NIL;
    private int lruHead = NIL;
    private int lruTail = NIL;
    private int size;

    PodCache(String podId, String address, int capacityBlocks, long holderMark) {
        this.podId = podId;
        this.address = address;
        this.holderMark = holderMark;
        this.capacityBlocks = Math.max(1, capacityBlocks);
    }

    int size() {
        return size;
    }

    int capacity() {
        return capacityBlocks;
    }

    void capacity(int blocks) {
        capacityBlocks = Math.max(1, blocks);
    }

    boolean eventFed() {
        return eventFed;
    }

    /**
     * Switches to event-fed: blocks only the gateway guessed (unconfirmed and not in use) go, since the engine's events
     * now say what it holds; blocks of requests in flight stay pending.
     */
    void startEventFed(BlockCounter onRemoved) {
        eventFed = true;
        for (int node = 0; node < used; node++) {
            if (isLive(node) && refs[node] == 0 && !confirmed[node]) {
                unlink(node);
                free(node, onRemoved);
            }
        }
    }

    /** Back to the gateway's model, starting from what the engine last reported; capacity eviction resumes. */
    void stopEventFed(BlockCounter onRemoved) {
        eventFed = false;
        evictOverflow(onRemoved);
    }

    boolean contains(long blockHash) {
        return table.get(blockHash) != NIL;
    }

    /**
     * Adds (or finds) the node of each block, referencing it when {@code reference}, and otherwise making it the most
     * recent free block. Blocks are visited deepest first, so the prefix ends up the most recent.
     *
     * @param nodes where the node numbers go, aligned with {@code hashes}, when the blocks are referenced (for the
     *     release); null when they are not
     * @param confirm the engine reported these blocks (an event), rather than the gateway routing a request to them
     * @param onNew told of each block this pod did not hold before (the model counts holders)
     */
    void add(long[] hashes, int count, int[] nodes, boolean confirm, BlockCounter onNew) {
        boolean reference = nodes != null;
        if (reference) {
            // A routed prompt's lookups first, in a loop of their own: each is likely a cache miss into a table of
            // thousands of blocks, and with nothing else in the loop the processor keeps many of them in flight.
            // Adding the deeper blocks below frees and evicts nothing, so a node found here stays the block's.
            for (int i = 0; i < count; i++) {
                nodes[i] = table.get(hashes[i]);
            }
        }
        for (int i = count - 1; i >= 0; i--) {
            int node = reference ? nodes[i] : NIL;
            if (node == NIL) {
                node = table.get(hashes[i]); // not there before, unless a deeper equal hash was just added
            }
            if (node == NIL) {
                node = allocate(hashes[i]);
                onNew.added(hashes[i], holderMark);
            } else if (refs[node] == 0) {
                unlink(node);
            }
            if (confirm) {
                confirmed[node] = true;
            }
            if (reference) {
                refs[node]++;
                nodes[i] = node;
            } else if (refs[node] == 0) {
                append(node);
            }
        }
    }

    /**
     * Releases a request's references, deepest first; a node orphaned meanwhile (its block removed by an engine event,
     * or the pod cleared) is reused once its last request lets go. Event-fed, a block the engine never confirmed goes
     * when its last request ends (the engine did not cache it, or its event is still on the way and will add it again).
     */
    void release(int[] nodes, int count, BlockCounter onRemoved) {
        for (int i = count - 1; i >= 0; i--) {
            int node = nodes[i];
            if (node >= used || refs[node] == 0) {
                continue; // not referenced: a release of a hold this cache never made
            }
            if (--refs[node] == 0) {
                if (prev[node] == ORPHAN) {
                    recycle(node); // already out of the view: only the node goes back
                } else if (eventFed && !confirmed[node]) {
                    free(node, onRemoved);
                } else {
                    append(node);
                }
            }
        }
    }

    /** Evicts least-recent free blocks while the pod is over its capacity; event-fed, the engine's events evict. */
    void evictOverflow(BlockCounter onRemoved) {
        while (!eventFed && size > capacityBlocks && lruHead != NIL) {
            int victim = lruHead;
            unlink(victim);
            free(victim, onRemoved);
        }
    }

    /** Removes the blocks (an engine said it evicted them), referenced or not. */
    void remove(long[] hashes, BlockCounter onRemoved) {
        for (long h : hashes) {
            int node = table.get(h);
            if (node != NIL) {
                drop(node, onRemoved);
            }
        }
    }

    /** Removes every block (the pod left, or its engine cleared its cache). */
    void clear(BlockCounter onRemoved) {
        for (int node = 0; node < used; node++) {
            if (isLive(node)) {
                drop(node, onRemoved);
            }
        }
    }

    private boolean isLive(int node) {
        return table.get(hash[node]) == node;
    }

    private int allocate(long blockHash) {
        int node;
        if (freeList != NIL) {
            node = freeList;
            freeList = next[node];
        } else {
            if (used == hash.length) {
                grow();
            }
            node = used++;
        }
        hash[node] = blockHash;
        refs[node] = 0;
        confirmed[node] = false;
        prev[node] = NIL;
        next[node] = NIL;
        table.put(blockHash, node);
        size++;
        return node;
    }

    /** The block leaves the view: a free one's node is reused, a referenced one's is orphaned until released. */
    private void drop(int node, BlockCounter onRemoved) {
        if (refs[node] == 0) {
            unlink(node);
            free(node, onRemoved);
        } else {
            forget(node, onRemoved);
            prev[node] = ORPHAN;
        }
    }

    private void free(int node, BlockCounter onRemoved) {
        forget(node, onRemoved);
        recycle(node);
    }

    /** Out of the hash table, the holder counts and the size; the node itself is left as it is. */
    private void forget(int node, BlockCounter onRemoved) {
        table.remove(hash[node]);
        onRemoved.removed(hash[node]);
        size--;
    }

    /** The node onto the free list, for the next block allocated. */
    private void recycle(int node) {
        refs[node] = 0;
        prev[node] = NIL;
        next[node] = freeList;
        freeList = node;
    }

    /** Makes the node the most recent free block. */
    private void append(int node) {
        prev[node] = lruTail;
        next[node] = NIL;
        if (lruTail == NIL) {
            lruHead = node;
        } else {
            next[lruTail] = node;
        }
        lruTail = node;
    }

    private void unlink(int node) {
        int p = prev[node];
        int n = next[node];
        if (p == NIL) {
            lruHead = n;
        } else {
            next[p] = n;
        }
        if (n == NIL) {
            lruTail = p;
        } else {
            prev[n] = p;
        }
        prev[node] = NIL;
        next[node] = NIL;
    }

    private void grow() {
        int length = hash.length * 2;
        hash = Arrays.copyOf(hash, length);
        refs = Arrays.copyOf(refs, length);
        prev = Arrays.copyOf(prev, length);
        next = Arrays.copyOf(next, length);
        confirmed = Arrays.copyOf(confirmed, length);
    }

    /** How the model learns which blocks a pod gained or lost, to count holders per block. */
    interface BlockCounter {
        /** The pod whose {@link #holderMark} this is now holds the block. */
        void added(long blockHash, long holderMark);

        void removed(long blockHash);
    }
}
