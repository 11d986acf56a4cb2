package io.pdgateway.core.cache;

/** Block hash → entry index (a pod's node of the block). Not thread-safe: its {@link CacheModel} guards it. */
final class BlockTable extends HashSlots {
    private static final int EMPTY = -1;

    private int[] values;

    BlockTable(int expected) {
        super(expected);
        newValues(valueSlots());
    }

    @Override
    void newValues(int slots) {
        values = new int[slots];
    }

    @Override
    Object values() {
        return values;
    }

    @Override
    void copyValue(Object old, int from, int to) {
        values[to] = ((int[]) old)[from];
    }

    @Override
    void moveValue(int from, int to) {
        values[to] = values[from];
    }

    /** The entry of the hash, or -1. */
    int get(long hash) {
        int slot = find(hash);
        return slot < 0 ? EMPTY : values[slot];
    }

    /** Maps the hash to {@code entry} (not negative). */
    void put(long hash, int entry) {
        int slot = claim(hash);
        values[slot < 0 ? -1 - slot : slot] = entry;
    }

    void remove(long hash) {
        int slot = find(hash);
        if (slot >= 0) {
            delete(slot);
        }
    }
}
