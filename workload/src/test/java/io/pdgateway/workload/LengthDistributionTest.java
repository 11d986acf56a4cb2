package io.pdgateway.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The length distributions the command line takes: each form, its bounds, and the error for a bad one. */
class LengthDistributionTest {
    private final SplittableRandom random = new SplittableRandom(3);

    @Test
    void fixed_isAlwaysThatLength() {
        assertThat(IntStream.range(0, 100).map(i -> LengthDistribution.parse("512").sample(random))).containsOnly(512);
    }

    @Test
    void uniform_staysWithinBothEnds() {
        LengthDistribution d = LengthDistribution.parse("100..200");

        assertThat(IntStream.range(0, 2_000).map(i -> d.sample(random)).boxed().toList())
                .allMatch(n -> n >= 100 && n <= 200).contains(100, 200);
    }

    @Test
    void lognormal_hasItsMedianInTheMiddle() {
        LengthDistribution d = LengthDistribution.parse("lognormal:800:1.0");
        int[] samples = IntStream.range(0, 4_001).map(i -> d.sample(random)).sorted().toArray();

        assertThat(samples[2_000]).isBetween(700, 900);
        assertThat(samples[0]).isGreaterThanOrEqualTo(1);
    }

    @Test
    void mix_drawsFromEachPartByWeight() {
        LengthDistribution d = LengthDistribution.parse("0.8*10..20+0.2*1000");
        long long_ = IntStream.range(0, 5_000).map(i -> d.sample(random)).filter(n -> n == 1000).count();

        // 1,000 expected, standard deviation sqrt(5000 × 0.2 × 0.8) ≈ 28.
        assertThat(long_).isBetween(880L, 1120L);
        assertThat(d.toString()).isEqualTo("0.8*10..20+0.2*1000");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0", "-5", "20..10", "lognormal:0:1", "abc", "0.5*"})
    void badSpecs_areRejectedWithTheForms(String spec) {
        assertThatThrownBy(() -> LengthDistribution.parse(spec)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("100..2000");
    }
}
