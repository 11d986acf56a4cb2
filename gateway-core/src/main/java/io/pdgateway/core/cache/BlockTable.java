package io.pdgateway.core.cache;

/**
 * Block hash → entry index, open addressing over primitive arrays (linear probing, backward-shift deletion), so a
 * lookup on the routing hot path neither boxes nor allocates. A free slot is a zero key, so a probe for a block the
 * table does not hold (most of a prefix walk's probes: one per pod that might hold it) reads the keys alone, one cache
 * line, and only a hit reads its entry; the hash 0 itself is kept beside the slots. A table made {@code marked}
 * keeps 64 bits of marks beside each entry, OR-ed in by {@link #mark} and gone with the entry. Not thread-safe: its
 * {@link CacheModel} guards it.
 */
final class BlockTable {
    private static final int EMPTY = -1;
    private static final long FREE = 0;
    /** Grow at half full: probes stay short under the skewed hashes real prompts do not produce, but tests might. */
    private static final double MAX_LOAD = 0.5;

    private long[] keys;
    private int[] values;
    /** Each slot's marks, or null when the table keeps none. */
    private long[] marks;
    private final boolean marked;
    private int mask;
    /** Entries in the slots (the zero hash's not counted). */
    private int used;
    /** The entry of the hash 0, or EMPTY. */
    private int zeroEntry = EMPTY;
    private long zeroMarks;

    BlockTable(int expected) {
        this(expected, false);
    }

    BlockTable(int expected, boolean marked) {
        this.marked = marked;
        int capacity = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        allocate(capacity);
    }

    private void allocate(int capacity) {
        keys = new long[capacity];
        values = new int[capacity];
        marks = marked ? new long[capacity] : null;
        mask = capacity - 1;
    }

    int size() {
        return used + (zeroEntry == EMPTY ? 0 : 1);
    }

    /** The entry of the hash, or -1. */
    int get(long hash) {
        if (hash == FREE) {
            return zeroEntry;
        }
        int slot = find(hash);
        return slot < 0 ? EMPTY : values[slot];
    }

    /** The marks of the hash's entry (0 when it has none; a marked table's). */
    long marks(long hash) {
        if (hash == FREE) {
            return zeroMarks;
        }
        int slot = find(hash);
        return slot < 0 ? 0 : marks[slot];
    }

    /** ORs {@code bits} into the marks of the hash's entry, if it has one (a marked table's). */
    void mark(long hash, long bits) {
        if (hash == FREE) {
            zeroMarks |= bits;
            return;
        }
        int slot = find(hash);
        if (slot >= 0) {
            marks[slot] |= bits;
        }
    }

    /** The slot of a hash other than 0, or -1. */
    private int find(long hash) {
        int slot = slot(hash);
        long key;
        while ((key = keys[slot]) != FREE) {
            if (key == hash) {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
        return -1;
    }

    /** Maps the hash to {@code entry} (not negative), keeping the marks of an entry it had. */
    void put(long hash, int entry) {
        if (hash == FREE) {
            zeroEntry = entry;
            return;
        }
        if (used + 1 > keys.length * MAX_LOAD) {
            grow();
        }
        int slot = slot(hash);
        while (keys[slot] != FREE) {
            if (keys[slot] == hash) {
                values[slot] = entry;
                return;
            }
            slot = (slot + 1) & mask;
        }
        keys[slot] = hash;
        values[slot] = entry;
        if (marked) {
            marks[slot] = 0;
        }
        used++;
    }

    void remove(long hash) {
        if (hash == FREE) {
            zeroEntry = EMPTY;
            zeroMarks = 0;
            return;
        }
        int slot = find(hash);
        if (slot >= 0) {
            shiftBack(slot);
            used--;
        }
    }

    /** Backward-shift deletion: moves later members of the probe run into the hole, so no tombstones build up. */
    private void shiftBack(int hole) {
        int next = (hole + 1) & mask;
        while (keys[next] != FREE) {
            int home = slot(keys[next]);
            // The member at `next` may fill the hole when its home is not in (hole, next] (cyclically).
            boolean movable = hole <= next ? home <= hole || home > next : home <= hole && home > next;
            if (movable) {
                keys[hole] = keys[next];
                values[hole] = values[next];
                if (marked) {
                    marks[hole] = marks[next];
                }
                hole = next;
            }
            next = (next + 1) & mask;
        }
        keys[hole] = FREE;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        long[] oldMarks = marks;
        allocate(keys.length * 2);
        used = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != FREE) {
                put(oldKeys[i], oldValues[i]);
                if (marked) {
                    mark(oldKeys[i], oldMarks[i]);
                }
            }
        }
    }

    private int slot(long hash) {
        // Block hashes are already well mixed; fold the high bits in for small tables all the same.
        return (int) (hash ^ (hash >>> 32)) & mask;
    }
}
