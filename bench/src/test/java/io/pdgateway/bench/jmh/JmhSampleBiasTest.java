package io.pdgateway.bench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.util.SampleBuffer;

/**
 * Why the decision benchmarks time every operation themselves ({@link EveryOperation}): JMH's sample mode, fed an
 * operation faster than its 20 samples a millisecond, overstates a thin tail. This drives JMH's own histogram the way
 * its generated sample loop does; if a JMH release weighs the tail right, this fails and the recorder can go.
 */
class JmhSampleBiasTest {
    @Test
    void jmhsSampledP99_ofA12MicrosecondOperationWithAThinTail_isOverTwiceTheTrueOne() {
        SplittableRandom random = new SplittableRandom(1);
        long[] runs = new long[75_000]; // one second of a 13 µs operation
        for (int i = 0; i < runs.length; i++) {
            runs[i] = random.nextDouble() < 0.008 ? 20_000 + random.nextLong(40_000) : 11_000 + random.nextLong(3_000);
        }

        SampleBuffer sampled = sampleAsJmhDoes(runs, 1_000 * 20);
        long[] sorted = runs.clone();
        Arrays.sort(sorted);
        double trueP99 = sorted[(int) (runs.length * 0.99)];

        assertThat(trueP99).isLessThan(15_000);
        assertThat(sampled.getStatistics(1).getPercentile(50)).isBetween(12_000.0, 13_500.0);
        assertThat(sampled.getStatistics(1).getPercentile(99)).isGreaterThan(2 * trueP99);
    }

    /**
     * JMH 1.37's sample loop: a run is sampled when the low bits of a linear congruential sequence are zero; after
     * {@code targetSamples} samples the histogram is halved and the mask widened, so later runs are sampled half as
     * often.
     */
    private static SampleBuffer sampleAsJmhDoes(long[] runs, int targetSamples) {
        SampleBuffer buffer = new SampleBuffer();
        int rnd = 12345;
        int mask = 0;
        int stride = 0;
        for (long run : runs) {
            rnd = rnd * 1664525 + 1013904223;
            if ((rnd & mask) == 0) {
                buffer.add(run);
                if (stride++ > targetSamples) {
                    buffer.half();
                    stride = 0;
                    mask = (mask << 1) + 1;
                }
            }
        }
        return buffer;
    }
}
