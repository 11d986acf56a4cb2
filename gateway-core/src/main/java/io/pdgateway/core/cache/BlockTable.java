package io.pdgateway.core.cache;

import java.util.Arrays;

/**
 * Block hash → entry index, open addressing over primitive arrays (linear probing, backward-shift deletion), so a
 * lookup on the routing hot path neither boxes nor allocates. Not thread-safe: its {@link CacheModel} guards it.
 */
final class BlockTable {
    private static final int EMPTY = -1;
    /** Grow at half full: probes stay short under the skewed hashes real prompts do not produce, but tests might. */
    private static final double MAX_LOAD = 0.5;

    private long[] keys;
    private int[] values;
    private int mask;
    private int size;

    BlockTable(int expected) {
        int capacity = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        allocate(capacity);
    }

    private void allocate(int capacity) {
        keys = new long[capacity];
        values = new int[capacity];
        Arrays.fill(values, EMPTY);
        mask = capacity - 1;
    }

    int size() {
        return size;
    }

    /** The entry of the hash, or -1. */
    int get(long hash) {
        int slot = slot(hash);
        while (values[slot] != EMPTY) {
            if (keys[slot] == hash) {
                return values[slot];
            }
            slot = (slot + 1) & mask;
        }
        return EMPTY;
    }

    void put(long hash, int entry) {
        if (size + 1 > keys.length * MAX_LOAD) {
            grow();
        }
        int slot = slot(hash);
        while (values[slot] != EMPTY) {
            if (keys[slot] == hash) {
                values[slot] = entry;
                return;
            }
            slot = (slot + 1) & mask;
        }
        keys[slot] = hash;
        values[slot] = entry;
        size++;
    }

    void remove(long hash) {
        int slot = slot(hash);
        while (values[slot] != EMPTY) {
            if (keys[slot] == hash) {
                shiftBack(slot);
                size--;
                return;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** Backward-shift deletion: moves later members of the probe run into the hole, so no tombstones build up. */
    private void shiftBack(int hole) {
        int next = (hole + 1) & mask;
        while (values[next] != EMPTY) {
            int home = slot(keys[next]);
            // The member at `next` may fill the hole when its home is not in (hole, next] (cyclically).
            boolean movable = hole <= next ? home <= hole || home > next : home <= hole && home > next;
            if (movable) {
                keys[hole] = keys[next];
                values[hole] = values[next];
                hole = next;
            }
            next = (next + 1) & mask;
        }
        values[hole] = EMPTY;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        allocate(keys.length * 2);
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != EMPTY) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }

    private int slot(long hash) {
        // Block hashes are already well mixed; fold the high bits in for small tables all the same.
        return (int) (hash ^ (hash >>> 32)) & mask;
    }
}
