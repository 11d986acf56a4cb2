package io.pdgateway.core.cache;

/**
 * Block hash → how many engine-reported caches of the model ({@link ReportedCaches}) hold the block, and marks naming
 * the pods that may: each pod has one of {@link #MARK_BITS} bits (every MARK_BITS-th pod shares one), and a block's
 * marks are the bits of every pod that held it since its count was last 0. They are a superset of its holders (a bit
 * is not taken back while another pod may share it), so a walk need not ask a pod whose bit is unmarked. Count and
 * marks share one long per slot: the marks cost 4 bytes a slot over an int count. (Modelled pods are counted in their
 * model's {@link PrefixTree}, per run.) Not thread-safe: its {@link CacheModel} guards it.
 */
final class HolderTable extends HashSlots {
    /** Holder counts up to 2^24 − 1 pods; the bits above are marks. */
    private static final int COUNT_BITS = 24;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
    static final int MARK_BITS = Long.SIZE - COUNT_BITS;

    private long[] values;

    HolderTable(int expected) {
        super(expected);
        newValues(valueSlots());
    }

    /** The mark of the {@code n}-th pod's cache. */
    static long markOf(int n) {
        return 1L << (COUNT_BITS + Integer.remainderUnsigned(n, MARK_BITS));
    }

    @Override
    void newValues(int slots) {
        values = new long[slots];
    }

    @Override
    Object values() {
        return values;
    }

    @Override
    void copyValue(Object old, int from, int to) {
        values[to] = ((long[]) old)[from];
    }

    @Override
    void moveValue(int from, int to) {
        values[to] = values[from];
    }

    /** Pods holding the block (0 when none). */
    int count(long hash) {
        return countIn(entry(hash));
    }

    /** The block's count and marks in one probe, for {@link #countIn} and {@link #marksIn}; 0 when none holds it. */
    long entry(long hash) {
        int slot = find(hash);
        return slot < 0 ? 0 : values[slot];
    }

    /** Pods holding the block of this {@link #entry}. */
    static int countIn(long entry) {
        return (int) (entry & COUNT_MASK);
    }

    /** The marks of the pods that may hold the block of this {@link #entry} ({@link #markOf}). */
    static long marksIn(long entry) {
        return entry & ~COUNT_MASK;
    }

    /** One more pod holds the block; {@code mark} is its {@link #markOf}. */
    void add(long hash, long mark) {
        int slot = claim(hash);
        if (slot < 0) {
            values[-1 - slot] = 1 | mark;
        } else {
            values[slot] = (values[slot] + 1) | mark;
        }
    }

    /** One pod fewer holds the block: at none, the block and its marks go. */
    void remove(long hash) {
        int slot = find(hash);
        if (slot < 0) {
            return;
        }
        if ((values[slot] & COUNT_MASK) <= 1) {
            delete(slot);
        } else {
            values[slot]--;
        }
    }
}
