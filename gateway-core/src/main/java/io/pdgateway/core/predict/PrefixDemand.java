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
    /** 2^15 slots: 32,768 prefixes, 768 KB per model. */
    static final int SLOTS = 1 << 15;
    private static final int MASK = SLOTS - 1;

    private long[] hashes;
    private long[] windows;
    private int[] current;
    private int[] previous;

    /** One routed request's prompt: every one of its prefixes was asked for once more, at {@code nowNanos}. */
    public void record(long[] blockHashes, long nowNanos) {
        if (blockHashes.length == 0) {
            return;
        }
        if (hashes == null) {
            hashes = new long[SLOTS];
            windows = new long[SLOTS];
            current = new int[SLOTS];
            previous = new int[SLOTS];
        }
        long window = nowNanos / WINDOW_NANOS;
        for (long hash : blockHashes) {
            int slot = slot(hash);
            if (!owns(slot, hash)) {
                int other = slot ^ 1;
                slot = owns(other, hash) ? other : weaker(slot, other, window);
                if (!owns(slot, hash)) {
                    hashes[slot] = hash;
                    windows[slot] = window;
                    current[slot] = 0;
                    previous[slot] = 0;
                }
            }
            roll(slot, window);
            current[slot]++;
        }
    }

    /** Requests that carried this prefix (named by its last block's hash) over about the last window. */
    public double requests(long blockHash, long nowNanos) {
        if (hashes == null) {
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
        long window = nowNanos / WINDOW_NANOS;
        double intoWindow = (nowNanos % WINDOW_NANOS) / (double) WINDOW_NANOS;
        long age = window - windows[slot];
        if (age == 0) {
            return current[slot] + previous[slot] * (1 - intoWindow);
        }
        return age == 1 ? current[slot] * (1 - intoWindow) : 0;
    }

    private boolean owns(int slot, long hash) {
        return hashes[slot] == hash && (current[slot] > 0 || previous[slot] > 0);
    }

    /** Of the two slots, the one whose prefix has fewer requests now (the one to give up). */
    private int weaker(int a, int b, long window) {
        return live(a, window) <= live(b, window) ? a : b;
    }

    private int live(int slot, long window) {
        long age = window - windows[slot];
        return age == 0 ? current[slot] + previous[slot] : age == 1 ? current[slot] : 0;
    }

    /** Moves the slot's counts into the given window. */
    private void roll(int slot, long window) {
        long age = window - windows[slot];
        if (age == 1) {
            previous[slot] = current[slot];
            current[slot] = 0;
        } else if (age > 1) {
            previous[slot] = 0;
            current[slot] = 0;
        }
        windows[slot] = window;
    }

    private static int slot(long hash) {
        long h = hash * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 40) & MASK & ~1;
    }
}
