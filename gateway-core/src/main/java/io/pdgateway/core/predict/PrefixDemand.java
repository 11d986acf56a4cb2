package io.pdgateway.core.predict;

/**
 * How many routed requests carried each prefix over the last {@link #WINDOW_NANOS}: predicted_ttft's measure of
 * whether warming another pod with a prefix pays back (see {@code PredictedTtftScorer}). A prefix is named by the
 * chained hash of its last block, so counting every block of every routed prompt counts every prefix of it.
 *
 * <p>Memory is fixed ({@link #SLOTS} entries, allocated with the first prompt), whatever clients send: a block competes
 * for two slots and displaces the one with fewer requests, so a prefix many requests share keeps its count while the
 * blocks of one-off prompts churn through the rest. A displaced or colliding prefix reads low, never high; a low count
 * only makes the policy charge warming a pod in full, as it did before it measured demand. Counts are two windows
 * wide, blended by the time into the current one (a sliding count without keeping timestamps). Not thread-safe: one
 * model's decisions, which hold its lane's lock, record and read it.
 */
public final class PrefixDemand {
    /** Requests older than this no longer count as demand: about the horizon a warm copy must pay back within. */
    public static final long WINDOW_NANOS = 10_000_000_000L;
    /** 2^15 slots: 32,768 prefixes, 1 MB per model. */
    static final int SLOTS = 1 << 15;
    private static final int MASK = SLOTS - 1;

    /**
     * Per slot, four longs side by side: the prefix's hash, the window its counts belong to, and the requests of that
     * window and of the one before. A block's two candidate slots are neighbours, so recording a block reads one or two
     * cache lines, not one per array (an 8,000-token prompt records 500 blocks per decision).
     */
    private long[] slots;
    private static final int HASH = 0;
    private static final int WINDOW = 1;
    private static final int CURRENT = 2;
    private static final int PREVIOUS = 3;

    /** One routed request's prompt: every one of its prefixes was asked for once more, at {@code nowNanos}. */
    public void record(long[] blockHashes, long nowNanos) {
        if (blockHashes.length == 0) {
            return;
        }
        if (slots == null) {
            slots = new long[4 * SLOTS];
        }
        long window = nowNanos / WINDOW_NANOS;
        for (long hash : blockHashes) {
            int slot = slot(hash);
            if (!owns(slot, hash)) {
                int other = slot ^ 1;
                slot = owns(other, hash) ? other : weaker(slot, other, window);
                if (!owns(slot, hash)) {
                    int at = 4 * slot;
                    slots[at + HASH] = hash;
                    slots[at + WINDOW] = window;
                    slots[at + CURRENT] = 0;
                    slots[at + PREVIOUS] = 0;
                }
            }
            roll(slot, window);
            slots[4 * slot + CURRENT]++;
        }
    }

    /** Requests that carried this prefix (named by its last block's hash) over about the last window. */
    public double requests(long blockHash, long nowNanos) {
        if (slots == null) {
            return 0;
        }
        int slot = slot(blockHash);
        if (!owns(slot, blockHash)) {
            slot ^= 1;
            if (!owns(slot, blockHash)) {
                return 0;
            }
        }
        return count(slot, nowNanos);
    }

    private double count(int slot, long nowNanos) {
        int at = 4 * slot;
        long window = nowNanos / WINDOW_NANOS;
        double intoWindow = (nowNanos % WINDOW_NANOS) / (double) WINDOW_NANOS;
        long age = window - slots[at + WINDOW];
        if (age == 0) {
            return slots[at + CURRENT] + slots[at + PREVIOUS] * (1 - intoWindow);
        }
        return age == 1 ? slots[at + CURRENT] * (1 - intoWindow) : 0;
    }

    private boolean owns(int slot, long hash) {
        int at = 4 * slot;
        return slots[at + HASH] == hash && (slots[at + CURRENT] > 0 || slots[at + PREVIOUS] > 0);
    }

    /** Of the two slots, the one whose prefix has fewer requests now (the one to give up). */
    private int weaker(int a, int b, long window) {
        return live(a, window) <= live(b, window) ? a : b;
    }

    private long live(int slot, long window) {
        int at = 4 * slot;
        long age = window - slots[at + WINDOW];
        return age == 0 ? slots[at + CURRENT] + slots[at + PREVIOUS] : age == 1 ? slots[at + CURRENT] : 0;
    }

    /** Moves the slot's counts into the given window. */
    private void roll(int slot, long window) {
        int at = 4 * slot;
        long age = window - slots[at + WINDOW];
        if (age == 1) {
            slots[at + PREVIOUS] = slots[at + CURRENT];
            slots[at + CURRENT] = 0;
        } else if (age > 1) {
            slots[at + PREVIOUS] = 0;
            slots[at + CURRENT] = 0;
        }
        slots[at + WINDOW] = window;
    }

    private static int slot(long hash) {
        long h = hash * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 40) & MASK & ~1;
    }
}
