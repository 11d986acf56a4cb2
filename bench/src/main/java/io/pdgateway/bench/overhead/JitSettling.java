package io.pdgateway.bench.overhead;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * More warm-up for a JVM proxy until its JIT compiler goes quiet. A fixed warm-up burst leaves C2 compiling for a
 * minute or more after it on two cores (a fifth of the gateway's CPU in the first measured round after 12,000
 * requests, by perf), and a compiler thread at work takes a core from the requests being measured; a process that
 * has served for a while has compiled its request path. Batches run until one takes the compiler under
 * {@link #QUIET_SHARE} of a core, or the time allowed is spent, and the output says which.
 */
final class JitSettling {
    /** A compiler under this share of one core is done with the request path: what is left is rare code. */
    static final double QUIET_SHARE = 0.02;
    static final double BATCH_SECONDS = 5;

    private JitSettling() {}

    /**
     * Runs batches ({@code batch} sends one of {@link #BATCH_SECONDS}) while the process's compiler works, within
     * {@code maxSeconds}; a process that compiled nothing (not a JVM) or whose threads cannot be read gets none.
     *
     * @param compilerNanos the compiler's CPU so far ({@link ProcessCpu#compilerNanos()})
     * @param clock nanoseconds, {@link System#nanoTime()}
     */
    static void settle(String name, LongSupplier compilerNanos, LongSupplier clock, double maxSeconds, Runnable batch,
            PrintStream out) {
        long compiled = compilerNanos.getAsLong();
        if (compiled <= 0) {
            return;
        }
        int batches = (int) Math.floor(maxSeconds / BATCH_SECONDS);
        double share = Double.NaN;
        for (int i = 0; i < batches; i++) {
            long start = clock.getAsLong();
            batch.run();
            long now = compilerNanos.getAsLong();
            if (now < 0) {
                return;
            }
            share = (now - compiled) / (double) (clock.getAsLong() - start);
            compiled = now;
            if (share < QUIET_SHARE) {
                out.printf(Locale.ROOT, "  %s's JIT compiler settled after %d more batches: %.1f %% of a core%n", name,
                        i + 1, share * 100);
                return;
            }
        }
        if (batches > 0) {
            out.printf(Locale.ROOT, "  %s's JIT compiler still at %.1f %% of a core after %d more batches: its CPU "
                    + "figures include compiling%n", name, share * 100, batches);
        }
    }
}
