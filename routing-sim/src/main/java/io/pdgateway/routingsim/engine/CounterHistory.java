package io.pdgateway.routingsim.engine;

/**
 * Recent values of a monotonic counter (generated tokens), as change points, so that the value the counter had at a
 * past scrape can be read back: what the gateway's scraper saw when it sampled the counter at that moment. Keeps only
 * what a rate window can still ask for.
 */
final class CounterHistory {
    private final long horizonNanos;
    private long[] times = new long[64];
    private long[] values = new long[64];
    private int start;
    private int size;

    /** @param horizonNanos how far back {@link #valueBefore} may be asked, relative to the latest change */
    CounterHistory(long horizonNanos) {
        this.horizonNanos = horizonNanos;
    }

    /** The counter became {@code value} at {@code at}; calls come in time order. */
    void record(long at, long value) {
        if (size > 0 && times[index(size - 1)] == at) {
            values[index(size - 1)] = value;
            return;
        }
        // Drop the oldest point while the next one is already old enough to answer every future question.
        while (size > 1 && times[index(1)] < at - horizonNanos) {
            start = index(1);
            size--;
        }
        if (size == times.length) {
            long[] t = new long[size * 2];
            long[] v = new long[size * 2];
            for (int i = 0; i < size; i++) {
                t[i] = times[index(i)];
                v[i] = values[index(i)];
            }
            times = t;
            values = v;
            start = 0;
        }
        times[index(size)] = at;
        values[index(size)] = value;
        size++;
    }

    /** The counter's value just before {@code at}: after every change strictly earlier than {@code at}; 0 before any. */
    long valueBefore(long at) {
        // Binary search for the last point earlier than at; points are in time order.
        int lo = 0;
        int hi = size - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (times[index(mid)] < at) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? 0 : values[index(found)];
    }

    private int index(int i) {
        return (start + i) % times.length;
    }
}
