package io.pdgateway.core.routing.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.pdgateway.core.predict.PrefillState;
import io.pdgateway.core.predict.PrefillTimeModel;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A pod's warm-up discount is read from sums made once per decision (one product with the pod's fit) where the fit
 * has no negative term, and segment by segment, two predictions each, where it has: both must give the same
 * milliseconds for every held depth, level set and share, deep and shallow prompts, levels past the prompt's end.
 */
class WarmUpSharesTest {
    @Test
    void theSummedDiscount_isTheSegmentBySegmentOne() {
        SplittableRandom random = new SplittableRandom(11);
        double[] state = new double[PrefillState.WIDTH];
        int compared = 0;
        for (int trial = 0; trial < 2_000; trial++) {
            long prompt = 1 + random.nextInt(20_000);
            long blockTokens = 16;
            int promptBlocks = (int) ((prompt + blockTokens - 1) / blockTokens);
            int[] levels = random.ints(1 + random.nextInt(WarmUpShares.MAX_LEVELS), 1, promptBlocks + 2).distinct()
                    .boxed().sorted((a, b) -> b - a).mapToInt(Integer::intValue).toArray();
            double[] shares = random.doubles(levels.length, 0, 1.5).map(s -> Math.min(1, s)).toArray();
            WarmUpShares warmUp = WarmUpShares.ofLevels(prompt, blockTokens, levels, shares);
            PrefillState.write(state, 0, new PrefillTimeModel.Coefficients(random.nextDouble(50),
                    random.nextDouble(0.1), random.nextDouble(1e-6)), 0, 0, 0, 0);
            assertThat(PrefillState.linear(state, 0)).isTrue();
            for (int held = 0; held <= promptBlocks + 2; held += 1 + random.nextInt(Math.max(1, promptBlocks / 8))) {
                double bySegment = warmUp.discountBySegment(state, 0, held);
                assertThat(warmUp.discountMillis(state, 0, held))
                        .as("prompt %d, levels %s, shares %s, held %d", prompt, Arrays.toString(levels),
                                Arrays.toString(shares), held)
                        .isCloseTo(bySegment, within(1e-9 * Math.max(1, Math.abs(bySegment))));
                compared++;
            }
        }
        assertThat(compared).isGreaterThan(10_000);
    }

    @Test
    void aFitWithANegativeTerm_isDiscountedSegmentBySegment() {
        double[] state = new double[PrefillState.WIDTH];
        // A fit the online regression may reach: a negative fixed cost, so short prompts predict 0 (clamped).
        PrefillState.write(state, 0, new PrefillTimeModel.Coefficients(-40, 0.02, 0), 0, 0, 0, 0);
        assertThat(PrefillState.linear(state, 0)).isFalse();
        WarmUpShares warmUp = WarmUpShares.ofLevels(3_200, 16, new int[] {200, 100}, new double[] {0, 0});
        // Held 150 of 200 blocks: lacks 800 tokens of the deepest level; computing 800 tokens predicts 16 − 40 < 0
        // → 0, and 0 tokens → 0: a discount of 0, where the unclamped difference would read 16 ms.
        assertThat(warmUp.discountMillis(state, 0, 150)).isEqualTo(warmUp.discountBySegment(state, 0, 150));
    }

    /**
     * The levels and each one's share as the definition reads them: the distinct held depths, deepest first, at most
     * MAX_LEVELS; a level's holders are the candidates holding it or deeper. Checked through the discounts they give
     * every held depth, against levels and shares counted the long way, with more distinct depths than are kept.
     */
    @Test
    void levelsAndShares_areTheDefinitions() {
        SplittableRandom random = new SplittableRandom(5);
        double[] state = new double[PrefillState.WIDTH];
        PrefillState.write(state, 0, new PrefillTimeModel.Coefficients(10, 0.02, 4e-7), 0, 0, 0, 0);
        for (int trial = 0; trial < 500; trial++) {
            int promptBlocks = 1 + random.nextInt(60);
            long prompt = promptBlocks * 16L;
            int[] held = random.ints(1 + random.nextInt(40), 0, promptBlocks + 1).toArray();
            double[] carried = random.doubles(promptBlocks + 1, 0, 30).map(Math::floor).toArray();
            WarmUpShares found = WarmUpShares.of(depth -> carried[depth], 16, prompt, held);

            int[] levels = Arrays.stream(held).filter(h -> h > 0).distinct().boxed().sorted((a, b) -> b - a)
                    .limit(WarmUpShares.MAX_LEVELS).mapToInt(Integer::intValue).toArray();
            double[] shares = new double[levels.length];
            for (int j = 0; j < levels.length; j++) {
                int level = levels[j];
                long holders = Arrays.stream(held).filter(h -> h >= level).count();
                shares[j] = carried[level] > 0 ? Math.min(1, (holders + 1) / carried[level]) : 1;
            }
            WarmUpShares expected = WarmUpShares.ofLevels(prompt, 16, levels, shares);
            for (int depth = 0; depth <= promptBlocks; depth++) {
                assertThat(found.discountMillis(state, 0, depth)).as("held %s, depth %d", Arrays.toString(held), depth)
                        .isCloseTo(expected.discountMillis(state, 0, depth), within(1e-9));
            }
        }
    }
}
