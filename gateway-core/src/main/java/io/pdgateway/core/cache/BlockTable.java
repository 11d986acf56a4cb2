package io.pdgateway.core.cache;

/** Block hash → entry index (a pod's node of the block). Not thread-safe: its {@link CacheModel} guards it. */
final class BlockTable extends HashSlots {
    private static final int EMPTY = -1;

    private int[] values;
    /** The entry of the hash 0, or EMPTY. */
    private int zeroEntry = EMPTY;

    BlockTable(int expected) {
        super(expected);
        newValues(capacity());
    }

    @Override
    void newValues(int capacity) {
        values = new int[capacity];
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

    int size() {
        return used() + (zeroEntry == EMPTY ? 0 : 1);
    }

    /** The entry of the hash, or -1. */
    int get(long hash) {
        if (hash == FREE) {
            return zeroEntry;
        }
        int slot = find(hash);
        return slot < 0 ? EMPTY : values[slot];
    }

    /** Maps the hash to {@code entry} (not negative). */
    void put(long hash, int entry) {
        if (hash == FREE) {
            zeroEntry = entry;
            return;
        }
        int slot = claim(hash);
        values[slot < 0 ? -1 - slot : slot] = entry;
    }

    void remove(long hash) {
        if (hash == FREE) {
            zeroEntry = EMPTY;
            return;
        }
        int slot = find(hash);
        if (slot >= 0) {
            delete(slot);
        }
    }
}
