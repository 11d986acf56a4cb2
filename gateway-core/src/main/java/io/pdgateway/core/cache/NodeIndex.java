package io.pdgateway.core.cache;

/**
 * First block hash of a run → its {@link RunNode}. Block hashes are chained (a block's hash covers its whole prefix),
 * so a run's first hash names its place in the tree: one table serves every node's children. Not thread-safe: its
 * {@link CacheModel} guards it.
 */
final class NodeIndex extends HashSlots {
    private RunNode[] values;

    NodeIndex(int expected) {
        super(expected);
        newValues(valueSlots());
    }

    @Override
    void newValues(int slots) {
        values = new RunNode[slots];
    }

    @Override
    Object values() {
        return values;
    }

    @Override
    void copyValue(Object old, int from, int to) {
        values[to] = ((RunNode[]) old)[from];
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
    RunNode get(long hash) {
        int slot = find(hash);
        return slot < 0 ? null : values[slot];
    }

    void put(long hash, RunNode node) {
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
