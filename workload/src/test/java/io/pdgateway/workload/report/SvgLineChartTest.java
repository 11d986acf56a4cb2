package io.pdgateway.workload.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Axis ticks: 1-2-5 steps covering the range, decades on a log axis. */
class SvgLineChartTest {
    @Test
    void linearTicks_useOneTwoFiveSteps() {
        assertThat(SvgLineChart.linearTicks(new double[] {0, 97})).containsExactly(0.0, 20.0, 40.0, 60.0, 80.0, 100.0);
        assertThat(SvgLineChart.linearTicks(new double[] {0, 1})).first().isEqualTo(0.0);
    }

    @Test
    void logTicks_markDecades_andTwoFiveOnNarrowRanges() {
        assertThat(SvgLineChart.logTicks(new double[] {0.5, 3000})).containsExactly(1.0, 10.0, 100.0, 1000.0);
        assertThat(SvgLineChart.logTicks(new double[] {1, 30})).containsExactly(1.0, 2.0, 5.0, 10.0, 20.0);
    }
}
