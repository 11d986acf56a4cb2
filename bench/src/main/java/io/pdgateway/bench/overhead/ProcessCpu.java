package io.pdgateway.bench.overhead;

import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The CPU time a proxy has used so far, user and system, its own process and its children's (nginx serves from worker
 * processes): what one request costs a proxy, the figure a rate search on two shared cores only hints at. The kernel
 * counts it in clock ticks (10 ms), so it is read over whole rounds of hundreds of requests, never one.
 */
final class ProcessCpu {
    private final ProcessHandle process;

    private ProcessCpu(ProcessHandle process) {
        this.process = process;
    }

    static Optional<ProcessCpu> of(long pid) {
        return ProcessHandle.of(pid).map(ProcessCpu::new);
    }

    /** Nanoseconds of CPU so far, or -1 when the system does not say (a process gone, a platform without it). */
    long nanos() {
        long total = 0;
        for (ProcessHandle handle : (Iterable<ProcessHandle>) Stream.concat(Stream.of(process),
                process.descendants())::iterator) {
            Optional<Duration> cpu = handle.info().totalCpuDuration();
            if (cpu.isEmpty()) {
                return -1;
            }
            total += cpu.get().toNanos();
        }
        return total;
    }

    /** Microseconds of CPU per request between two readings, NaN when either is unknown or nothing was served. */
    static double microsPerRequest(long before, long after, int requests) {
        if (before < 0 || after < 0 || requests <= 0) {
            return Double.NaN;
        }
        return (after - before) / 1_000.0 / requests;
    }
}
