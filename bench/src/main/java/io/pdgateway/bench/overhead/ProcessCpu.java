package io.pdgateway.bench.overhead;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The CPU time a proxy has used so far, user and system, its own process and its children's (nginx serves from worker
 * processes): what one request costs a proxy, the figure a rate search on two shared cores only hints at. The kernel
 * counts it in clock ticks (10 ms), so it is read over whole rounds of hundreds of requests, never one. A JVM's share
 * spent compiling is read apart (Linux: its compiler threads in /proc): on two cores a gateway that still compiles
 * takes that from its requests, and a round's figure would otherwise mix the two.
 */
final class ProcessCpu {
    /** Linux's USER_HZ, the unit of /proc's per-thread CPU times, on every architecture the JDK runs on. */
    static final long NANOS_PER_TICK = 10_000_000L;
    /** HotSpot names its JIT compiler threads "C1 CompilerThread0", "C2 CompilerThread1" and so on. */
    static final String COMPILER_THREAD = " CompilerThre";

    /** A target without a process of its own (the pod, a client running both legs): every reading unknown. */
    static final ProcessCpu NONE = new ProcessCpu(null);

    /** null for {@link #NONE}. */
    private final ProcessHandle process;

    private ProcessCpu(ProcessHandle process) {
        this.process = process;
    }

    static Optional<ProcessCpu> of(long pid) {
        return ProcessHandle.of(pid).map(ProcessCpu::new);
    }

    /** Nanoseconds of CPU so far, or -1 when the system does not say (a process gone, a platform without it). */
    long nanos() {
        if (process == null) {
            return -1;
        }
        long total = 0;
        for (ProcessHandle handle : family(process)) {
            Optional<Duration> cpu = handle.info().totalCpuDuration();
            if (cpu.isEmpty()) {
                return -1;
            }
            total += cpu.get().toNanos();
        }
        return total;
    }

    /**
     * Nanoseconds the JIT compiler threads of the process (and its descendants, as {@link #nanos}) have used so far: 0
     * for a process without any (nginx), -1 where /proc does not say or there is no process.
     */
    long compilerNanos() {
        if (process == null) {
            return -1;
        }
        long ticks = 0;
        try {
            for (Path thread : threads(process)) {
                if (isCompiler(thread)) {
                    ticks += cpuTicks(Files.readString(thread.resolve("stat")));
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1; // not Linux, or the process is gone; a thread that ends mid-read is a rare loss of one reading
        }
        return ticks * NANOS_PER_TICK;
    }

    /** The process and its descendants (nginx serves from worker processes), every one counted as the proxy. */
    static List<ProcessHandle> family(ProcessHandle process) {
        return Stream.concat(Stream.of(process), process.descendants()).toList();
    }

    /** The /proc directory of every thread of the process and its descendants (Linux only: elsewhere it throws). */
    static List<Path> threads(ProcessHandle process) throws IOException {
        List<Path> threads = new ArrayList<>();
        for (ProcessHandle handle : family(process)) {
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(
                    Path.of("/proc", Long.toString(handle.pid()), "task"))) {
                tasks.forEach(threads::add);
            }
        }
        return threads;
    }

    /** Whether the thread is one of HotSpot's JIT compiler threads. */
    static boolean isCompiler(Path thread) throws IOException {
        return Files.readString(thread.resolve("comm")).contains(COMPILER_THREAD);
    }

    /** How the process's threads (but its compiler's) have been scheduled so far; unknown where /proc does not say. */
    Wakeups wakeups() {
        return process == null ? Wakeups.UNKNOWN : Wakeups.of(process);
    }

    /** utime + stime from a /proc stat line: the 14th and 15th fields, counted after the command's closing bracket. */
    static long cpuTicks(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** Microseconds of CPU per request between two readings, NaN when either is unknown or nothing was served. */
    static double microsPerRequest(long before, long after, int requests) {
        if (before < 0 || after < 0 || requests <= 0) {
            return Double.NaN;
        }
        return (after - before) / 1_000.0 / requests;
    }
}
