package io.pdgateway.bench.jmh;

import java.util.Arrays;
import java.util.Locale;

/**
 * Every measured operation of a JMH benchmark timed on its own, for percentiles JMH's sample mode cannot give for
 * operations of microseconds. That mode keeps at most 20 samples a millisecond: for a faster operation it halves its
 * histogram's counts and samples half as often, once or twice an iteration, and a halving leaves a count of 1 at 1
 * ({@code SampleBuffer.half}), so a value seen once before the halving, which is most of a thin tail, then weighs as
 * much as two seen after it. With 0.8 % of a 12 µs operation's runs at 20-60 µs (true p99 14 µs), JMH 1.37 reports a
 * p99 of 33 µs ({@code JmhSampleBiasTest}); on this machine, a fixed 12 µs chain of memory reads read p99 35-56 µs in
 * JMH where every run of it, timed here in the same iterations, read 19.5-26.5 µs (2026-12-06).
 *
 * <p>Records the measurement iterations' operations (up to {@link #CAPACITY}; later ones are timed but not kept) and
 * gives their percentiles, per iteration and pooled over the trial, for {@link MicrosecondBenchmark} to print beside
 * JMH's report. The two clock reads an operation add (about 50 ns) are inside JMH's own sample as well.
 */
final class EveryOperation {
    /** Operations kept a trial: 20 s of 10 µs operations, 16 MB. */
    static final int CAPACITY = 1 << 21;

    private final String what;
    private final long[] nanos = new long[CAPACITY];
    private int kept;
    private int iterationStart;
    private boolean measuring;

    /** @param what the operation, as the report names it */
    EveryOperation(String what) {
        this.what = what;
    }

    /** Whether the operations from now on are measured ones (JMH's measurement iterations, not its warm-up). */
    void measuring(boolean measured) {
        measuring = measured;
        iterationStart = kept;
    }

    /** Keeps one operation's time, in nanoseconds, when measuring and not full. */
    void record(long operationNanos) {
        if (measuring && kept < CAPACITY) {
            nanos[kept++] = operationNanos;
        }
    }

    /** The percentiles of the iteration that just ended, or null when it was not measured or kept nothing. */
    String iteration() {
        return measuring && kept > iterationStart ? line("iteration", iterationStart, kept) : null;
    }

    /** The percentiles of every measured operation kept, or null when none was. */
    String trial() {
        return kept == 0 ? null : line("trial", 0, kept);
    }

    private String line(String scope, int from, int to) {
        long[] sorted = Arrays.copyOfRange(nanos, from, to);
        Arrays.sort(sorted);
        return String.format(Locale.ROOT, "every %s of the %s, %d timed: p50 %.1f, p90 %.1f, p99 %.1f, p99.9 %.1f µs",
                what, scope, sorted.length, SortedNanos.micros(sorted, 0.5), SortedNanos.micros(sorted, 0.9),
                SortedNanos.micros(sorted, 0.99), SortedNanos.micros(sorted, 0.999));
    }
}
