package io.pdgateway.workload.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Percentiles are nearest-rank over the values that are not NaN. */
class NearestRankPercentilesTest {
    @Test
    void percentile_nearestRank_ignoresNaN() {
        NearestRankPercentiles sample = NearestRankPercentiles.of(new double[] {5, Double.NaN, 1, 4, 2, 3});
        assertThat(sample.count()).isEqualTo(5);
        assertThat(sample.percentile(50)).isEqualTo(3);
        assertThat(sample.percentile(99)).isEqualTo(5);
        assertThat(sample.percentile(1)).isEqualTo(1);
        assertThat(NearestRankPercentiles.of(new double[0]).percentile(50)).isNaN();
    }
}
