package io.pdgateway.bench.overhead;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How a proxy's threads were scheduled, from each thread's /proc/PID/task/TID/schedstat: how long they ran, how long
 * they waited runnable for a core, and how many times they were put on one (a wake-up, or a return after being
 * preempted). Over a round, per request, it says whether a proxy's requests wait for cores or for its own work: on two
 * shared cores a thread that runs long each time it wakes holds a core while the next event waits for one. The JIT
 * compiler's threads are left out, as from the CPU a request outside the compiler.
 *
 * @param runNanos  time on a core
 * @param waitNanos time runnable, waiting for a core
 * @param slices    times put on a core; -1 when unknown (not Linux, no process, a thread gone between readings)
 * @param requests  the requests served over the interval; 0 in a reading
 */
public record Wakeups(long runNanos, long waitNanos, long slices, long requests) {
    public static final Wakeups UNKNOWN = new Wakeups(0, 0, -1, 0);
    static final Wakeups ZERO = new Wakeups(0, 0, 0, 0);

    /** The process's threads and its descendants' (nginx serves from worker processes), but JIT compiler threads. */
    static Wakeups of(ProcessHandle process) {
        long run = 0;
        long wait = 0;
        long slices = 0;
        try {
            for (Path thread : ProcessCpu.threads(process)) {
                if (!ProcessCpu.isCompiler(thread)) {
                    Wakeups one = parse(Files.readString(thread.resolve("schedstat")));
                    run += one.runNanos;
                    wait += one.waitNanos;
                    slices += one.slices;
                }
            }
        } catch (IOException | RuntimeException e) {
            return UNKNOWN; // not Linux, no scheduler statistics, or a thread or the process ended mid-read
        }
        return new Wakeups(run, wait, slices, 0);
    }

    /** A schedstat line: "run-nanoseconds wait-nanoseconds timeslices". */
    static Wakeups parse(String schedstat) {
        String[] fields = schedstat.trim().split("\\s+");
        return new Wakeups(Long.parseLong(fields[0]), Long.parseLong(fields[1]), Long.parseLong(fields[2]), 0);
    }

    public boolean known() {
        return slices >= 0;
    }

    /**
     * What happened between {@code before} and this reading, over that many requests; unknown when either is, or when
     * a count went back (a thread ended between them and took its counts with it).
     */
    Wakeups since(Wakeups before, int requests) {
        if (!known() || !before.known() || slices < before.slices || runNanos < before.runNanos
                || waitNanos < before.waitNanos) {
            return UNKNOWN;
        }
        return new Wakeups(runNanos - before.runNanos, waitNanos - before.waitNanos, slices - before.slices,
                requests);
    }

    /** Two intervals pooled; unknown if either is. */
    Wakeups plus(Wakeups other) {
        if (!known() || !other.known()) {
            return UNKNOWN;
        }
        return new Wakeups(runNanos + other.runNanos, waitNanos + other.waitNanos, slices + other.slices,
                requests + other.requests);
    }

    /** Times the threads were put on a core per request served; NaN when unknown or nothing was served. */
    public double perRequest() {
        return known() && requests > 0 ? (double) slices / requests : Double.NaN;
    }

    /** Microseconds waited for a core each time; NaN when unknown or never scheduled. */
    public double waitMicrosEach() {
        return known() && slices > 0 ? waitNanos / 1_000.0 / slices : Double.NaN;
    }

    /** Microseconds on a core each time; NaN when unknown or never scheduled. */
    public double runMicrosEach() {
        return known() && slices > 0 ? runNanos / 1_000.0 / slices : Double.NaN;
    }
}
