package io.pdgateway.core.cache;

/**
 * First block hash of a run → its node in a tree of runs ({@link RunNode} in the cache view, {@link PrefixDemand}'s
 * runs). Block hashes are chained (a block's hash covers its whole prefix), so a run's first hash names its place in
 * the tree: one table serves every node's children. Not thread-safe: its tree's owner guards it.
 */
final class NodeIndex<N> extends HashSlots {
    private Object[] values;

    NodeIndex(int expected) {
        super(expected);
        newValues(valueSlots());
    }

    @Override
    void newValues(int slots) {
        values = new Object[slots];
    }

    @Override
    Object values() {
        return values;
    }

    @Override
    void copyValue(Object old, int from, int to) {
        values[to] = ((Object[]) old)[from];
    }

    @Override
    void moveValue(int from, int to) {
        values[to] = values[from];
    }

    @Override
    void clearValue(int slot) {
        values[slot] = null;
    }

    /** The run starting with the hash, or null. */
    @SuppressWarnings("unchecked")
    N get(long hash) {
        int slot = find(hash);
        return slot < 0 ? null : (N) values[slot];
    }

    void put(long hash, N node) {
        int slot = claim(hash);
        values[slot < 0 ? -1 - slot : slot] = node;
    }

    void remove(long hash) {
        int slot = find(hash);
        if (slot >= 0) {
            delete(slot);
        }
    }
}
