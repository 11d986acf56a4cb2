package io.pdgateway.core.cache;

import java.util.Arrays;

/**
 * How many routed requests carried each prefix over the last {@link #WINDOW_NANOS}: predicted_ttft's measure of
 * whether warming another pod with a prefix pays back (see {@code PredictedTtftScorer}). The recorded prompts form a
 * radix tree of block runs, as the cache view's do ({@link PrefixTree}), each run counting the requests that carried
 * it: a run is split where a prompt ends or departs inside it, so every request through a run carried all of it, and
 * the requests that carried a prompt's first k blocks are the count of the run holding block k. Recording a prompt
 * touches the few runs on its path (a conversation's new turn adds one), not each of its blocks: counting an
 * 8,000-token prompt block by block in a table was most of a predicted_ttft decision's time at 4,096 pods.
 *
 * <p>Memory is bounded whatever clients send: at most {@link #MAX_BLOCKS} blocks in at most {@link #MAX_RUNS} runs
 * (a few MB per model at worst), the least recently carried runs going first, and of a prompt only its first
 * {@link #MAX_PROMPT_BLOCKS} blocks count. A run is always carried at least as recently as any run below it, so the
 * least recent run is a leaf and the tree stays whole. A prefix many requests carry stays recent; a forgotten one reads
 * 0, never high, and a low count only makes the policy charge warming a pod in full, as it did before it measured
 * demand. Counts are two windows wide, blended by the time into the current one (a sliding count without keeping
 * timestamps). Not thread-safe: one model's decisions, which hold its lane's lock, record and read it.
 */
public final class PrefixDemand {
    /** Requests older than this no longer count as demand: about the horizon a warm copy must pay back within. */
    public static final long WINDOW_NANOS = 10_000_000_000L;
    /** 2^17 blocks: about 2M tokens of distinct prefixes at 16-token blocks, 1 MB of hashes. */
    static final int MAX_BLOCKS = 1 << 17;
    /** 2^15 runs: with their index, about 4 MB when every run is a single block (the worst case). */
    static final int MAX_RUNS = 1 << 15;
    /** A prompt's blocks past this (256k tokens at 16-token blocks) are not counted, so no one prompt flushes the rest. */
    static final int MAX_PROMPT_BLOCKS = MAX_BLOCKS / 8;

    private final NodeIndex<Run> starts = new NodeIndex<>(64);
    /** Least recently carried first: the next to go. */
    private Run oldest;
    private Run newest;
    private int blocks;
    private int runs;
    /** The last record's path, touched deepest first once counted. */
    private Run[] path = new Run[16];

    /** One routed request's prompt: every one of its prefixes was asked for once more, at {@code nowNanos}. */
    public void record(long[] hashes, long nowNanos) {
        int length = Math.min(hashes.length, MAX_PROMPT_BLOCKS);
        long window = nowNanos / WINDOW_NANOS;
        int nodes = 0;
        int pos = 0;
        Run parent = null;
        while (pos < length) {
            Run run = starts.get(hashes[pos]);
            if (run == null || run.parent != parent) {
                break; // the rest is new (or its first hash starts a run elsewhere: a collision, checked below)
            }
            int matched = Runs.matched(run.hashes, hashes, pos, length);
            boolean whole = matched == run.hashes.length;
            if (!whole) {
                run = split(run, matched); // the prompt ends or departs inside the run
            }
            nodes = onPath(nodes, run);
            pos += matched;
            parent = run;
            if (!whole) {
                break;
            }
        }
        if (pos < length && starts.get(hashes[pos]) == null) {
            Run leaf = new Run(Arrays.copyOfRange(hashes, pos, length), parent, window);
            starts.put(hashes[pos], leaf);
            blocks += leaf.hashes.length;
            runs++;
            nodes = onPath(nodes, leaf);
        }
        for (int j = nodes - 1; j >= 0; j--) { // deepest first, so each run ends more recent than those below it
            Run run = path[j];
            run.roll(window);
            run.current++;
            touch(run);
            path[j] = null;
        }
        while (blocks > MAX_BLOCKS || runs > MAX_RUNS) {
            forget(oldest);
        }
    }

    /**
     * Requests that carried the prompt's first {@code blocks} blocks (the prefix ending in {@code blockHashes[blocks -
     * 1]}) over about the last window.
     */
    public double requests(long[] blockHashes, int blocks, long nowNanos) {
        int pos = 0;
        Run parent = null;
        while (pos < blocks) {
            Run run = starts.get(blockHashes[pos]);
            if (run == null || run.parent != parent) {
                return 0;
            }
            int length = run.hashes.length;
            if (blocks - pos <= length) {
                return blockHashes[blocks - 1] == run.hashes[blocks - 1 - pos] ? run.count(nowNanos) : 0;
            }
            if (blockHashes[pos + length - 1] != run.hashes[length - 1]) {
                return 0;
            }
            pos += length;
            parent = run;
        }
        return 0;
    }

    /** Blocks in the tree's runs (each distinct recorded block once). */
    int blocks() {
        return blocks;
    }

    /** Whether a run of the tree starts with this block. */
    boolean startsRun(long hash) {
        return starts.get(hash) != null;
    }

    private int onPath(int nodes, Run run) {
        if (nodes == path.length) {
            path = Arrays.copyOf(path, nodes * 2);
        }
        path[nodes] = run;
        return nodes + 1;
    }

    /**
     * Splits the run after its first {@code k} blocks into a new upper run and itself (the rest); returns the upper
     * one. Every request counted on the run carried both parts, so the upper one starts with the same counts. It takes
     * its place in the recency order when the record's path is touched, which it is on.
     */
    private Run split(Run lower, int k) {
        long[] all = lower.hashes;
        Run upper = new Run(Arrays.copyOf(all, k), lower.parent, lower.window);
        upper.current = lower.current;
        upper.previous = lower.previous;
        lower.hashes = Arrays.copyOfRange(all, k, all.length);
        lower.parent = upper;
        starts.put(all[0], upper);
        starts.put(all[k], lower);
        runs++;
        return upper;
    }

    /** The least recent run (a leaf: its parent was carried whenever it was) leaves the tree. */
    private void forget(Run run) {
        unlink(run);
        starts.remove(run.hashes[0]);
        blocks -= run.hashes.length;
        runs--;
    }

    /** Makes the run the most recently carried. */
    private void touch(Run run) {
        if (run != newest) {
            if (run.newer != null || run == oldest) { // else a new run, in no place yet
                unlink(run);
            }
            run.older = newest;
            if (newest == null) {
                oldest = run;
            } else {
                newest.newer = run;
            }
            newest = run;
        }
    }

    private void unlink(Run run) {
        if (run.older == null) {
            oldest = run.newer;
        } else {
            run.older.newer = run.newer;
        }
        if (run.newer == null) {
            newest = run.older;
        } else {
            run.newer.older = run.older;
        }
        run.older = null;
        run.newer = null;
    }

    /** A run of blocks every request counted on it carried, and those requests by window. */
    private static final class Run {
        long[] hashes;
        Run parent;
        Run older;
        Run newer;
        /** The window {@link #current} counts; {@link #previous} counts the one before it. */
        long window;
        long current;
        long previous;

        Run(long[] hashes, Run parent, long window) {
            this.hashes = hashes;
            this.parent = parent;
            this.window = window;
        }

        /** Moves the counts into the given window. */
        void roll(long now) {
            long age = now - window;
            if (age == 1) {
                previous = current;
                current = 0;
            } else if (age > 1) {
                previous = 0;
                current = 0;
            }
            window = now;
        }

        double count(long nowNanos) {
            long now = nowNanos / WINDOW_NANOS;
            double intoWindow = (nowNanos % WINDOW_NANOS) / (double) WINDOW_NANOS;
            long age = now - window;
            if (age == 0) {
                return current + previous * (1 - intoWindow);
            }
            return age == 1 ? current * (1 - intoWindow) : 0;
        }
    }
}
