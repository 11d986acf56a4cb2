package io.pdgateway.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.DoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * The stepped rate search: rates double while p99 stays within twice the baseline and nothing fails; a failing
 * rate is measured again and fails only twice over; then it bisects; it halves below a failing start; it never runs
 * more than its steps or offers more than its maximum; the answer is the highest rate seen to pass.
 */
class RateSearchTest {
    /** Baseline p99 2 ms: steps pass up to 4 ms. */
    private static final double BASELINE = 2;

    /** A target whose p99 is 3 ms up to {@code knee} req/s and 10 ms above it. */
    private static DoubleFunction<RateStep> knee(double knee) {
        return rate -> new RateStep(rate, 100, 0, rate <= knee ? 3 : 10, false);
    }

    private static List<Double> run(RateSearch search, DoubleFunction<RateStep> target) {
        List<Double> tried = new ArrayList<>();
        OptionalDouble next;
        while ((next = search.next()).isPresent()) {
            tried.add(next.getAsDouble());
            search.record(target.apply(next.getAsDouble()));
        }
        return tried;
    }

    @Test
    void doublesUntilAFailure_thenBisects() {
        RateSearch search = new RateSearch(BASELINE, 25, 3200, 12, 0.1);

        List<Double> tried = run(search, knee(300));

        // 25, 50, 100, 200 pass; 400 fails twice; then 300 (pass), 350 (fails twice), 325 (fails twice): the bracket
        // [300, 325] is now within 10 %.
        assertThat(tried).containsExactly(25.0, 50.0, 100.0, 200.0, 400.0, 400.0, 300.0, 350.0, 350.0, 325.0, 325.0);
        assertThat(search.sustainedRate()).isEqualTo(300);
        assertThat(search.limitMillis()).isEqualTo(4);
        assertThat(search.steps()).extracting(RateStep::passed)
                .containsExactly(true, true, true, true, false, false, true, false, false, false, false);
    }

    @Test
    void theDefaultBudget_bisectsToTheResolution_whereverTheKneeLies() {
        for (double knee = 85; knee < 3200; knee += 37) {
            RateSearch search = new RateSearch(BASELINE, 80, 3200, Integer.parseInt(RateSearch.DEFAULT_STEPS), 0.1);

            run(search, knee(knee));

            assertThat(search.sustainedRate()).as("knee %.0f", knee).isLessThanOrEqualTo(knee)
                    .isGreaterThanOrEqualTo(knee / 1.1);
        }
    }

    @Test
    void stopsAfterItsSteps() {
        RateSearch search = new RateSearch(BASELINE, 25, 3200, 3, 0.1);

        assertThat(run(search, knee(1000))).containsExactly(25.0, 50.0, 100.0);
        assertThat(search.sustainedRate()).isEqualTo(100);
    }

    @Test
    void neverOffersMoreThanItsMaximum_andSaysSo() {
        RateSearch search = new RateSearch(BASELINE, 25, 150, 10, 0.1);

        assertThat(run(search, knee(1e9))).containsExactly(25.0, 50.0, 100.0, 150.0);
        assertThat(search.cappedByMaxRate()).isTrue();
    }

    @Test
    void errors_failAStep_evenWithALowP99() {
        RateSearch search = new RateSearch(BASELINE, 10, 1000, 8, 0.1);

        List<Double> tried = run(search, rate -> new RateStep(rate, 100, rate >= 40 ? 1 : 0, 2, false));

        // 10, 20 pass; 40 has an error, twice; 30, 35, 37.5 pass and the bracket [37.5, 40] is within 10 %.
        assertThat(tried).containsExactly(10.0, 20.0, 40.0, 40.0, 30.0, 35.0, 37.5);
        assertThat(search.sustainedRate()).isEqualTo(37.5);
    }

    @Test
    void failingStart_halvesUntilAPass_thenBisects() {
        RateSearch search = new RateSearch(BASELINE, 80, 3200, 12, 0.1);

        List<Double> tried = run(search, knee(30));

        // 80 and 40 fail twice each, 20 passes; then 30 (pass), 35 and 32.5 (each fails twice): within 10 % of 30.
        assertThat(tried).containsExactly(80.0, 80.0, 40.0, 40.0, 20.0, 30.0, 35.0, 35.0, 32.5, 32.5);
        assertThat(search.sustainedRate()).isEqualTo(30);
    }

    @Test
    void brokenTarget_givesUpAtATenthOfTheStart_withNoRate() {
        RateSearch search = new RateSearch(BASELINE, 80, 3200, 20, 0.1);

        assertThat(run(search, rate -> new RateStep(rate, 100, 3, 2, false)))
                .containsExactly(80.0, 80.0, 40.0, 40.0, 20.0, 20.0, 10.0, 10.0);
        assertThat(search.sustainedRate()).isNaN();
    }

    @Test
    void oneNoisyStep_doesNotEndTheSearch() {
        RateSearch search = new RateSearch(BASELINE, 80, 640, 12, 0.1);
        int[] calls = {0};

        // The first measurement at 160 req/s hits a 30 ms hiccup; measured again it is fine.
        List<Double> tried = run(search, rate -> new RateStep(rate, 100, 0,
                rate == 160 && calls[0]++ == 0 ? 30 : 3, false));

        assertThat(tried).containsExactly(80.0, 160.0, 160.0, 320.0, 640.0);
        assertThat(search.sustainedRate()).isEqualTo(640);
    }

    @Test
    void badSettings_areRejected() {
        assertThatThrownBy(() -> new RateSearch(0, 10, 20, 5, 0.1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RateSearch(BASELINE, 0, 10, 5, 0.1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RateSearch(BASELINE, 20, 10, 5, 0.1)).isInstanceOf(IllegalArgumentException.class);
    }
}
