package io.pdgateway.server.scrape;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Per-second rate of a counter over a sliding window of samples. A 50 ms scrape interval sees only a handful of
 * decode steps between two samples, so the rate spans about a second instead of one interval; a counter that goes
 * down (engine restart) starts the window again.
 */
final class CounterRate {
    /** About a second of samples: long enough to smooth step granularity, short enough to follow load shifts. */
    static final long WINDOW_NANOS = 1_000_000_000L;

    private record Sample(long nanos, double value) {}

    private final Deque<Sample> samples = new ArrayDeque<>();

    /** Adds a sample and returns the rate over the window, or NaN until two samples span some time. */
    synchronized double add(long nanos, double value) {
        Sample last = samples.peekLast();
        if (last != null && value < last.value()) {
            samples.clear();
        }
        samples.addLast(new Sample(nanos, value));
        while (samples.size() > 2 && nanos - samples.peekFirst().nanos() > WINDOW_NANOS) {
            samples.removeFirst();
        }
        Sample first = samples.peekFirst();
        long span = nanos - first.nanos();
        return span <= 0 ? Double.NaN : (value - first.value()) / (span / 1e9);
    }
}
