package io.pdgateway.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * How an operation of microseconds is benchmarked here, so that the routing decision and its control
 * ({@link FixedWorkBenchmark}) run alike: sampled by JMH over 5 × 1 s after 3 × 1 s of warm-up in one fork, and every
 * measured operation also timed on its own ({@link EveryOperation}): the benchmark method records each operation's
 * time in {@link #timed}; the percentiles of the measurement iterations are printed after each of them and pooled
 * after the trial, beside JMH's report. (JMH's annotations are inherited.)
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public abstract class MicrosecondBenchmark {
    final EveryOperation timed;

    /** @param what the operation, as the report names it */
    MicrosecondBenchmark(String what) {
        timed = new EveryOperation(what);
    }

    @Setup(Level.Iteration)
    public void iteration(IterationParams params) {
        timed.measuring(params.getType() == IterationType.MEASUREMENT);
    }

    @TearDown(Level.Iteration)
    public void iterationDone() {
        print(timed.iteration());
    }

    @TearDown(Level.Trial)
    public void trialDone() {
        print(timed.trial());
    }

    private static void print(String line) {
        if (line != null) {
            System.out.println(System.lineSeparator() + line);
        }
    }
}
