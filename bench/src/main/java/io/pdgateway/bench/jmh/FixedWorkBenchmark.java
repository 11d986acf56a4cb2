package io.pdgateway.bench.jmh;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The control beside {@link RoutingDecisionBenchmark}: work that is the same every time, run and timed the same way
 * (sampled by JMH, each run also timed on its own, {@link EveryOperation}), so the distance between its p99 and its
 * p50 is what the machine adds to any operation of that length, and the distance between JMH's p99 and that of every
 * run is what JMH's sampling adds. The unit is {@link CpuJitter}'s chain of dependent reads and writes at random places
 * in a 16 MB array, {@code reads} long: pick it so its p50 matches the decision's. {@code bin/bench-jmh
 * "RoutingDecisionBenchmark|FixedWorkBenchmark" -p pods=512 -p promptTokens=8000 -p reads=175,270}.
 */
public class FixedWorkBenchmark extends MicrosecondBenchmark {
    /** Reads a unit: 175 and 270 took about 7.5 and 12 µs on the build machine (2026-12-06). */
    @Param({"175", "270"})
    int reads;

    private long[] memory;
    private long x = 1;

    public FixedWorkBenchmark() {
        super("unit");
    }

    @Setup
    public void setUp() {
        memory = new long[CpuJitter.SLOTS];
    }

    @Benchmark
    public long unit() {
        long start = System.nanoTime();
        x = CpuJitter.unit(memory, x, reads);
        timed.record(System.nanoTime() - start);
        return x;
    }
}
