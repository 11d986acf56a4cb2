package io.pdgateway.bench.jmh;

import java.util.Arrays;
import java.util.Locale;

/**
 * How often, and for how long, the machine takes the core away from a thread that never blocks: the floor under any
 * tail a microbenchmark reports. One thread reads the monotonic clock in a tight loop for a few seconds and keeps every
 * gap between two reads longer than a threshold (timer interrupts, a hypervisor running something else, the kernel's
 * own work). A measured operation of d µs overlaps such a gap with a probability of about (rate × (d + gap)); once that
 * reaches 1 %, an operation's p99 is its median plus a gap, whatever the code does. Run it before and beside
 * {@link RoutingDecisionBenchmark} and {@link DecisionCpuTime}, and with nothing else running.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar io.pdgateway.bench.jmh.HostJitter [seconds=5] [thresholdMicros=3]}
 */
public final class HostJitter {
    /** The gaps kept: enough for several seconds of a noisy host, a fixed array so the loop allocates nothing. */
    private static final int MAX_GAPS = 1 << 20;

    private HostJitter() {}

    public static void main(String[] args) {
        double seconds = 5;
        double thresholdMicros = 3;
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            switch (kv[0]) {
                case "seconds" -> seconds = Double.parseDouble(kv[1]);
                case "thresholdMicros" -> thresholdMicros = Double.parseDouble(kv[1]);
                default -> throw new IllegalArgumentException("unknown option " + kv[0]);
            }
        }
        measure(1, 1_000); // the loop compiled before the measured run
        long[] gaps = measure(seconds, thresholdMicros);
        report(gaps, seconds, thresholdMicros);
    }

    /** The gaps over the threshold, in nanoseconds, in the order they happened. */
    private static long[] measure(double seconds, double thresholdMicros) {
        long threshold = (long) (thresholdMicros * 1_000);
        long[] gaps = new long[MAX_GAPS];
        int count = 0;
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long last = start;
        while (last < end) {
            long now = System.nanoTime();
            if (now - last > threshold && count < gaps.length) {
                gaps[count++] = now - last;
            }
            last = now;
        }
        return Arrays.copyOf(gaps, count);
    }

    private static void report(long[] gaps, double seconds, double thresholdMicros) {
        long stolen = Arrays.stream(gaps).sum();
        long[] sorted = gaps.clone();
        Arrays.sort(sorted);
        double rate = gaps.length / seconds;
        System.out.printf(Locale.ROOT, "%d gaps over %.1f µs in %.1f s: %.0f a second, %.2f %% of the time%n",
                gaps.length, thresholdMicros, seconds, rate, 100.0 * stolen / (seconds * 1e9));
        if (sorted.length == 0) {
            return;
        }
        double median = SortedNanos.micros(sorted, 0.5);
        System.out.printf(Locale.ROOT, "gap µs: p50 %.1f, p90 %.1f, p99 %.1f, max %.1f%n", median,
                SortedNanos.micros(sorted, 0.9), SortedNanos.micros(sorted, 0.99), sorted[sorted.length - 1] / 1e3);
        // rate × (d + gap) = 1 %: an operation at least this long has a gap in its p99.
        double onePercentMicros = 0.01 / rate * 1e6 - median;
        System.out.printf(Locale.ROOT, "an operation of %.1f µs or longer is hit in 1 %% of its runs: its p99 includes"
                + " a gap (about %.1f µs)%n", Math.max(0, onePercentMicros), median);
    }
}
