package io.pdgateway.bench.overhead;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The whole host's CPU so far, from the first line of /proc/stat (every process and the kernel: the load generator, the
 * simulated pods, the proxy, nginx's workers, the loopback's soft interrupts). The overhead benchmark shares its cores
 * with what it measures, so where a target's rate search ends it can say whether the host's CPU ran out there, for the
 * reference as for a proxy: a proxy whose every request costs the host more than the reference's cannot match the
 * reference's rate once that rate keeps every core busy, whatever its latency.
 *
 * @param busyTicks  user, nice, system, irq and softirq time, in clock ticks summed over the host's CPUs
 * @param totalTicks the same plus idle, iowait and steal: what the CPUs had; -1 when /proc/stat cannot be read
 * @param cpus       the host's CPUs (its "cpuN" lines), whatever the JVM was told it may use
 */
record HostCpu(long busyTicks, long totalTicks, int cpus) {
    static final HostCpu UNKNOWN = new HostCpu(-1, -1, 0);
    private static final Path STAT = Path.of("/proc/stat");

    static HostCpu read() {
        try {
            return parse(Files.readAllLines(STAT));
        } catch (IOException | RuntimeException e) {
            return UNKNOWN; // not Linux: the report leaves the host's figures out
        }
    }

    /**
     * The first line, "cpu  user nice system idle iowait irq softirq steal guest guest_nice" summed over the CPUs
     * (guest time is inside user already), then a line per CPU.
     */
    static HostCpu parse(List<String> lines) {
        String[] f = lines.get(0).trim().split("\\s+");
        if (!f[0].equals("cpu")) {
            return UNKNOWN;
        }
        long busy = 0;
        for (int i : new int[] {1, 2, 3, 6, 7}) {
            busy += Long.parseLong(f[i]);
        }
        int cpus = 0;
        for (String line : lines) {
            if (line.length() > 3 && line.startsWith("cpu") && Character.isDigit(line.charAt(3))) {
                cpus++;
            }
        }
        return new HostCpu(busy, busy + Long.parseLong(f[4]) + Long.parseLong(f[5]) + Long.parseLong(f[8]), cpus);
    }

    /** How many of the host's CPUs were busy, on average, since {@code before}; NaN when either is unknown. */
    double coresBusySince(HostCpu before) {
        long total = totalTicks - before.totalTicks;
        if (totalTicks < 0 || before.totalTicks < 0 || total <= 0) {
            return Double.NaN;
        }
        return (double) (busyTicks - before.busyTicks) / total * cpus;
    }

    /** The host's CPU microseconds per request since {@code before}; NaN when either is unknown or none was served. */
    double microsPerRequestSince(HostCpu before, int requests) {
        if (totalTicks < 0 || before.totalTicks < 0 || requests <= 0) {
            return Double.NaN;
        }
        return (busyTicks - before.busyTicks) * (ProcessCpu.NANOS_PER_TICK / 1_000.0) / requests;
    }
}
