package io.pdgateway.bench.jmh;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@link HostJitter}'s companion for {@link DecisionCpuTime}: how often the machine stretches a fixed piece of work
 * when it is timed by the thread's CPU clock, as DecisionCpuTime times a decision. The work is a chain of dependent
 * reads and writes at random places in a 16 MB array, about as memory-bound as a decision over hundreds of pods and
 * the same every time, so every unit well above the median was slowed by the host (time a hypervisor gave the vCPU
 * to another guest but the guest still counted as this thread's, caches emptied by a neighbour), not by its code. If a
 * share s of units this long are stretched by g µs, a decision of about the same length has the stretch in its p99
 * once s reaches 1 %, whatever the decision does.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar io.pdgateway.bench.jmh.CpuJitter [units=100000] [reads=250]}
 * (250 reads: about 20 µs a unit on the 2026 build machine, a 512-pod decision's length).
 */
public final class CpuJitter {
    /** The unit's memory: 16 MB of longs. */
    static final int SLOTS = 1 << 21;

    private CpuJitter() {}

    public static void main(String[] args) {
        int units = 100_000;
        int reads = 250;
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            switch (kv[0]) {
                case "units" -> units = Integer.parseInt(kv[1]);
                case "reads" -> reads = Integer.parseInt(kv[1]);
                default -> throw new IllegalArgumentException("unknown option " + kv[0]);
            }
        }
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] memory = new long[SLOTS];
        measure(threads, memory, units, reads); // compiled before the measured run
        long[] cpu = measure(threads, memory, units, reads);
        long[] sorted = cpu.clone();
        Arrays.sort(sorted);
        long median = sorted[units / 2];
        int doubled = 0;
        for (long c : cpu) {
            doubled += c > 2 * median ? 1 : 0;
        }
        System.out.printf(Locale.ROOT, "%d units of %d dependent reads in 16 MB, thread CPU time: p50 %.1f µs, p90 %.1f,"
                + " p99 %.1f, p99.9 %.1f; over twice the median: %.2f %% of units%n", units, reads, median / 1e3,
                sorted[(int) (units * 0.9)] / 1e3, sorted[(int) (units * 0.99)] / 1e3,
                sorted[(int) (units * 0.999)] / 1e3, 100.0 * doubled / units);
    }

    private static long[] measure(ThreadMXBean threads, long[] memory, int units, int reads) {
        long[] cpu = new long[units];
        long x = 1;
        for (int u = 0; u < units; u++) {
            long start = threads.getCurrentThreadCpuTime();
            x = unit(memory, x, reads);
            cpu[u] = threads.getCurrentThreadCpuTime() - start;
        }
        memory[0] += x; // keeps the chain live
        return cpu;
    }

    /**
     * One unit of work: {@code reads} dependent reads and writes at random places in {@code memory} ({@link #SLOTS}
     * long), the chain continuing from {@code x}; returns where it ended, for the next unit to continue from.
     */
    static long unit(long[] memory, long x, int reads) {
        long next = x;
        for (int r = 0; r < reads; r++) {
            int at = (int) (next >>> 43) & (SLOTS - 1);
            memory[at] += r;
            next = next * 6364136223846793005L + 1442695040888963407L + memory[at]; // the next place needs this one
        }
        return next;
    }
}
