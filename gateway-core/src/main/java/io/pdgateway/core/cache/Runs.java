package io.pdgateway.core.cache;

/** What the trees of block runs ({@link PrefixTree}, {@link PrefixDemand}) compare a prompt with a run by. */
final class Runs {
    private Runs() {}

    /**
     * How many of the run's blocks the prompt has from {@code pos} (at least 1: the run starts with the prompt's
     * block there). Chained hashes are equal up to the first difference and differ after it, so the run's last block
     * settles a whole match and a binary search finds a partial one.
     */
    static int matched(long[] run, long[] hashes, int pos) {
        return matched(run, hashes, pos, hashes.length);
    }

    /** As {@link #matched(long[], long[], int)}, for the prompt's first {@code length} blocks. */
    static int matched(long[] run, long[] hashes, int pos, int length) {
        int most = Math.min(run.length, length - pos);
        if (hashes[pos + most - 1] == run[most - 1]) {
            return most;
        }
        int lo = 1;
        int hi = most - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (hashes[pos + mid - 1] == run[mid - 1]) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }
}
