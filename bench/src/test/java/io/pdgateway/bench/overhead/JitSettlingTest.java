package io.pdgateway.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The warm-up goes on while a JVM proxy's compiler works, and stops once it is quiet or the time allowed is spent. */
class JitSettlingTest {
    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong clock = new AtomicLong();
    private final AtomicLong compiled = new AtomicLong(30 * SECOND);
    private final AtomicInteger batches = new AtomicInteger();
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    /** A batch of five seconds in which the compiler takes the next of the given milliseconds. */
    private Runnable batchCompiling(long... millis) {
        return () -> {
            compiled.addAndGet(millis[batches.getAndIncrement()] * 1_000_000L);
            clock.addAndGet(5 * SECOND);
        };
    }

    private void settle(double maxSeconds, Runnable batch) {
        JitSettling.settle("pd-gateway", compiled::get, clock::get, maxSeconds, batch,
                new PrintStream(printed, true, StandardCharsets.UTF_8));
    }

    @Test
    void batchesRunUntilOneLeavesTheCompilerUnderTwoPercentOfACore() {
        settle(60, batchCompiling(900, 300, 90, 40));

        assertThat(batches).hasValue(3);
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("settled after 3 more batches: 1.8 % of a core");
    }

    @Test
    void theTimeAllowedBoundsTheBatches_andTheOutputSaysTheCompilerWasStillAtWork() {
        settle(10, batchCompiling(900, 800, 700));

        assertThat(batches).hasValue(2);
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("still at 16.0 % of a core after 2 more batches");
    }

    @Test
    void aProcessThatNeverCompiled_getsNoBatch() {
        compiled.set(0); // nginx: no JIT compiler threads

        settle(60, batchCompiling(0));

        assertThat(batches).hasValue(0);
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
