package io.pdgateway.core.predict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** A copied state's predictions: floored where the fit would go below them, and unknown (NaN) where the fit is. */
class PrefillStateTest {
    @Test
    void anAnswer_isNeverBeforeTheLegsOwnCompute_norAPredictionBelowZero() {
        double[] state = new double[PrefillState.WIDTH];
        // a fit with a negative fixed cost: one short prompt would predict below zero
        PrefillState.write(state, 0, new PrefillTimeModel.Coefficients(-5, 0.001, 0), 0, 0, 0, 0);
        assertThat(PrefillState.computeMillis(state, 0, 100, 0)).isZero();

        PrefillState.write(state, 0, new PrefillTimeModel.Coefficients(10, 0.02, 0), 2, 1000, 0, 500);
        // the queue ahead (2 legs, 1,000 tokens) is 500 ms along: what is left of it is less than this leg's own 30 ms
        assertThat(PrefillState.answerMillis(state, 0, 1000, 0)).isEqualTo(30.0);
        PrefillState.write(state, 0, new PrefillTimeModel.Coefficients(10, 0.02, 0), 2, 1000, 0, 5);
        // 5 ms along: three legs' fixed 30 ms and 2,000 tokens' 40 ms, less the 5 done
        assertThat(PrefillState.answerMillis(state, 0, 1000, 0)).isCloseTo(65.0, within(1e-9));
    }

    @Test
    void aFitThatIsNotKnown_predictsNaN() {
        double[] state = new double[PrefillState.WIDTH];
        PrefillState.write(state, 0, new PrefillTimeModel.Coefficients(Double.NaN, 0.02, 0), 1, 500, 0, 0);
        assertThat(PrefillState.computeMillis(state, 0, 1000, 0)).isNaN();
        assertThat(PrefillState.answerMillis(state, 0, 1000, 0)).isNaN();
    }
}
