package io.pdgateway.routingsim.engine;

import java.util.Arrays;

/**
 * One engine's prefix cache, as engine-sim's PrefixCache: full KV blocks keyed by their chained hash, least recently
 * used evicted first, bounded by the KV capacity in blocks; a hit is the run of leading blocks present, so hits land
 * on multiples of the block size as in vLLM (engine-timing.md §3.3, §5). Looking a block up refreshes it.
 *
 * <p>Stored in primitive arrays (open addressing with linear probing, an intrusive LRU list) rather than a
 * LinkedHashMap of boxed keys: a 1,000-pod run holds millions of blocks, and the arrays grow only as blocks arrive.
 */
final class PrefixBlockCache {
    private static final int NONE = -1;
    /** First allocation, in blocks; doubles up to the capacity. */
    private static final int INITIAL_NODES = 1024;

    private final int capacity;
    /** Told of every block stored and evicted (the engine's KV-cache events), or null when nobody listens. */
    private Changes changes;
    private long[] keys = new long[0];
    private int[] prev = new int[0];
    private int[] next = new int[0];
    /** Hash slot → node index + 1; 0 is an empty slot. Length is a power of two, at least twice the nodes. */
    private int[] slots = new int[0];
    private int size;
    private int head = NONE;
    private int tail = NONE;

    PrefixBlockCache(int capacityBlocks) {
        this.capacity = Math.max(1, capacityBlocks);
    }

    int size() {
        return size;
    }

    /** What an engine publishing KV-cache events reports: each block as it is stored and as it is evicted. */
    interface Changes {
        void stored(long blockHash);

        void evicted(long blockHash);
    }

    void publishTo(Changes listener) {
        this.changes = listener;
    }

    /** Leading blocks of {@code hashes} present, each refreshed as it is found. */
    int leadingHits(long[] hashes) {
        int hits = 0;
        while (hits < hashes.length) {
            int node = find(hashes[hits]);
            if (node == NONE) {
                break;
            }
            touch(node);
            hits++;
        }
        return hits;
    }

    /** Leading blocks of {@code hashes} present, without refreshing them: a look that changes nothing. */
    int peekLeadingHits(long[] hashes) {
        int hits = 0;
        while (hits < hashes.length && find(hashes[hits]) != NONE) {
            hits++;
        }
        return hits;
    }

    /** Remembers every block of a prompt whose prefill finished, evicting the least recently used past capacity. */
    void insert(long[] hashes) {
        for (long hash : hashes) {
            if (size == keys.length && size < capacity) {
                grow();
            }
            // One probe finds the block or the empty slot where it belongs.
            int slot = slotOf(hash);
            int entry = slots[slot];
            if (entry != 0) {
                touch(entry - 1);
                continue;
            }
            int node;
            if (size == capacity) {
                node = tail;
                unlink(node);
                removeSlot(keys[node]);
                if (changes != null) {
                    changes.evicted(keys[node]);
                }
                slot = slotOf(hash); // the backward shift may have moved the empty slot
            } else {
                node = size++;
            }
            keys[node] = hash;
            slots[slot] = node + 1;
            pushFront(node);
            if (changes != null) {
                changes.stored(hash);
            }
        }
    }

    /** The slot holding {@code hash}, or the empty slot where probing for it stops. */
    private int slotOf(long hash) {
        int mask = slots.length - 1;
        int i = spread(hash) & mask;
        while (slots[i] != 0 && keys[slots[i] - 1] != hash) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private void grow() {
        int nodes = Math.min(capacity, Math.max(INITIAL_NODES, keys.length * 2));
        keys = Arrays.copyOf(keys, nodes);
        prev = Arrays.copyOf(prev, nodes);
        next = Arrays.copyOf(next, nodes);
        slots = new int[Integer.highestOneBit(nodes * 2 - 1) << 1];
        for (int node = 0; node < size; node++) {
            putSlot(keys[node], node);
        }
    }

    private int find(long hash) {
        if (slots.length == 0) {
            return NONE;
        }
        int mask = slots.length - 1;
        for (int i = spread(hash) & mask; ; i = (i + 1) & mask) {
            int entry = slots[i];
            if (entry == 0) {
                return NONE;
            }
            if (keys[entry - 1] == hash) {
                return entry - 1;
            }
        }
    }

    private void putSlot(long hash, int node) {
        int mask = slots.length - 1;
        int i = spread(hash) & mask;
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        slots[i] = node + 1;
    }

    /** Linear-probing deletion by backward shift, so no tombstones pile up under constant eviction. */
    private void removeSlot(long hash) {
        int mask = slots.length - 1;
        int i = spread(hash) & mask;
        while (keys[slots[i] - 1] != hash) {
            i = (i + 1) & mask;
        }
        int hole = i;
        for (int j = (hole + 1) & mask; slots[j] != 0; j = (j + 1) & mask) {
            int home = spread(keys[slots[j] - 1]) & mask;
            // Move the entry back when the hole lies cyclically between its home slot and where it sits.
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                slots[hole] = slots[j];
                hole = j;
            }
        }
        slots[hole] = 0;
    }

    private void touch(int node) {
        if (node != head) {
            unlink(node);
            pushFront(node);
        }
    }

    private void pushFront(int node) {
        prev[node] = NONE;
        next[node] = head;
        if (head != NONE) {
            prev[head] = node;
        }
        head = node;
        if (tail == NONE) {
            tail = node;
        }
    }

    private void unlink(int node) {
        int p = prev[node];
        int n = next[node];
        if (p != NONE) {
            next[p] = n;
        } else {
            head = n;
        }
        if (n != NONE) {
            prev[n] = p;
        } else {
            tail = p;
        }
    }

    /** The hashes are already well mixed, but a final fold keeps a poor caller-supplied hash from clustering. */
    private static int spread(long hash) {
        long h = hash * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
