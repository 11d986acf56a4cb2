package io.pdgateway.core.cache;

/**
 * The keys of a block-hash table: open addressing over a primitive array (linear probing, backward-shift deletion), so
 * a lookup on the routing hot path neither boxes nor allocates. A free slot is a zero key, so a probe for a block the
 * table does not hold (most of a prefix walk's probes) reads the keys alone, one cache line; a subclass keeps the
 * values in an array of its own beside the keys, {@link #valueSlots()} long, whose last slot is the hash 0's (a legal
 * hash, kept apart from the probed slots). Not thread-safe: its {@link CacheModel} guards it.
 */
abstract class HashSlots {
    static final long FREE = 0;
    /** Grow at half full: probes stay short under the skewed hashes real prompts do not produce, but tests might. */
    private static final double MAX_LOAD = 0.5;

    private long[] keys;
    private int mask;
    /** Keys in the slots (the hash 0 not counted). */
    private int used;
    /** Whether the table holds the hash 0 (its value is in the last value slot). */
    private boolean zeroHeld;

    HashSlots(int expected) {
        int capacity = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[capacity];
        mask = capacity - 1;
    }

    /** A value array for {@code slots} slots, in place of the current one (which the next call may read). */
    abstract void newValues(int slots);

    /** Slot {@code to} of the new values takes slot {@code from} of {@code old}, the array before {@link #newValues}. */
    abstract void copyValue(Object old, int from, int to);

    /** The current value array. */
    abstract Object values();

    /** The value at {@code from} moves to {@code to} (a deletion closing its hole). */
    abstract void moveValue(int from, int to);

    /** The slot's value is no longer any key's (a value that references an object lets it go); by default nothing. */
    void clearValue(int slot) {
    }

    /** Slots the value array must have: one per key slot, and the hash 0's. */
    final int valueSlots() {
        return keys.length + 1;
    }

    /** Hashes held. */
    final int size() {
        return used + (zeroHeld ? 1 : 0);
    }

    /** The value slot of the hash, or -1. */
    final int find(long hash) {
        if (hash == FREE) {
            return zeroHeld ? keys.length : -1;
        }
        int slot = probe(hash);
        return keys[slot] == FREE ? -1 : slot;
    }

    /** The value slot of the hash when it has one, else {@code -1 - slot} of a slot now keyed to it. */
    final int claim(long hash) {
        if (hash == FREE) {
            if (zeroHeld) {
                return keys.length;
            }
            zeroHeld = true;
            return -1 - keys.length;
        }
        if (used + 1 > keys.length * MAX_LOAD) {
            grow();
        }
        int slot = probe(hash);
        if (keys[slot] == hash) {
            return slot;
        }
        keys[slot] = hash;
        used++;
        return -1 - slot;
    }

    /** The slot keyed to a hash other than 0, or the free slot that ends its probe run. */
    private int probe(long hash) {
        int slot = slot(hash);
        long key;
        while ((key = keys[slot]) != FREE && key != hash) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    /**
     * Frees the value slot {@link #find} gave (backward-shift deletion: later members of its probe run move into the
     * hole, no tombstones).
     */
    final void delete(int hole) {
        if (hole == keys.length) {
            zeroHeld = false;
            clearValue(hole);
            return;
        }
        int next = (hole + 1) & mask;
        while (keys[next] != FREE) {
            if (fillsHole(slot(keys[next]), hole, next)) {
                keys[hole] = keys[next];
                moveValue(next, hole);
                hole = next;
            }
            next = (next + 1) & mask;
        }
        keys[hole] = FREE;
        clearValue(hole);
        used--;
    }

    /**
     * Whether the member at {@code next}, whose probe starts at {@code home}, may move into {@code hole} (a deletion
     * closing its hole): when its home is not in (hole, next], cyclically.
     */
    static boolean fillsHole(int home, int hole, int next) {
        return hole <= next ? home <= hole || home > next : home <= hole && home > next;
    }

    private void grow() {
        long[] oldKeys = keys;
        Object oldValues = values();
        keys = new long[oldKeys.length * 2];
        mask = keys.length - 1;
        newValues(valueSlots());
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != FREE) {
                int slot = probe(oldKeys[i]); // a free slot: the new keys hold each hash once
                keys[slot] = oldKeys[i];
                copyValue(oldValues, i, slot);
            }
        }
        if (zeroHeld) {
            copyValue(oldValues, oldKeys.length, keys.length);
        }
    }

    private int slot(long hash) {
        // Block hashes are already well mixed; fold the high bits in for small tables all the same.
        return (int) (hash ^ (hash >>> 32)) & mask;
    }
}
