package io.pdgateway.core.routing;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.TokenLedger;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A model's working arrays: the same array again for the same use and length (nothing allocated from one decision to
 * the next, two lengths per use), never one array for two uses (stages of one decision cannot overwrite each other's),
 * exactly the length asked for (stages loop over the whole array) unless asked for at least a length, fresh arrays for
 * a load view without buffers, and scores from them only when the decision's score table will not be read.
 */
class DecisionBuffersTest {
    private final DecisionBuffers buffers = new DecisionBuffers();
    private final ClusterLoad load = new ClusterLoad(new RequestLedger(), new TokenLedger(), pod -> PodMetrics.ABSENT, 0)
            .using(buffers);

    @Test
    void sameUseAndLength_sameArray_otherLength_anotherOfThatLength() {
        double[] counts = DecisionBuffers.doubles(load, Use.DECODE_COUNT, 512);
        assertThat(DecisionBuffers.doubles(load, Use.DECODE_COUNT, 512)).isSameAs(counts);
        double[] fewer = DecisionBuffers.doubles(load, Use.DECODE_COUNT, 3);
        assertThat(fewer).hasSize(3);
        assertThat(DecisionBuffers.doubles(load, Use.DECODE_COUNT, 3)).isSameAs(fewer);
        assertThat(buffers.flags(Use.PREFILL_KEPT, 7)).isSameAs(buffers.flags(Use.PREFILL_KEPT, 7)).hasSize(7);
        assertThat(buffers.ints(Use.PREFIX_PERCENT, 9)).isSameAs(buffers.ints(Use.PREFIX_PERCENT, 9)).hasSize(9);
    }

    @Test
    void twoLengthsKept_aSideScoredWholeThenNarrowed_allocatesNothingTheNextDecision() {
        double[] whole = buffers.doubles(Use.DECODE_COUNT, 256);
        double[] narrowed = buffers.doubles(Use.DECODE_COUNT, 1);
        assertThat(buffers.doubles(Use.DECODE_COUNT, 256)).isSameAs(whole);
        assertThat(buffers.doubles(Use.DECODE_COUNT, 1)).isSameAs(narrowed);
        double[] third = buffers.doubles(Use.DECODE_COUNT, 7); // replaces the one used longest ago: 256
        assertThat(buffers.doubles(Use.DECODE_COUNT, 1)).isSameAs(narrowed);
        assertThat(buffers.doubles(Use.DECODE_COUNT, 7)).isSameAs(third);
        assertThat(buffers.doubles(Use.DECODE_COUNT, 256)).isNotSameAs(whole).hasSize(256);
    }

    @Test
    void atLeast_oneArrayForEveryShorterLength_aLongerOneReplacesIt() {
        double[] states = DecisionBuffers.doublesAtLeast(load, Use.PREFILL_STATES, 7 * 300);
        for (int kept : new int[] {299, 17, 300, 250, 1}) { // the stddev skip keeping other numbers of pods
            assertThat(DecisionBuffers.doublesAtLeast(load, Use.PREFILL_STATES, 7 * kept)).isSameAs(states);
        }
        double[] longer = DecisionBuffers.doublesAtLeast(load, Use.PREFILL_STATES, 7 * 301);
        assertThat(longer).isNotSameAs(states).hasSizeGreaterThanOrEqualTo(7 * 301);
        assertThat(DecisionBuffers.doublesAtLeast(load, Use.PREFILL_STATES, 7 * 3)).isSameAs(longer);
        assertThat(DecisionBuffers.doublesAtLeast(LoadView.IDLE, Use.PREFILL_STATES, 5)).hasSize(5);
    }

    @Test
    void scores_reusedOnlyWhenNobodyReadsTheTable() {
        double[] reused = DecisionBuffers.scores(load, Use.PREFILL_SCORES, 8);
        assertThat(DecisionBuffers.scoresKept(load)).isFalse();
        assertThat(DecisionBuffers.scores(load, Use.PREFILL_SCORES, 8)).isSameAs(reused);
        ClusterLoad explained = new ClusterLoad(new RequestLedger(), new TokenLedger(), pod -> PodMetrics.ABSENT, 0)
                .using(buffers).keepingScores(true);
        assertThat(DecisionBuffers.scoresKept(explained)).isTrue();
        assertThat(DecisionBuffers.scores(explained, Use.PREFILL_SCORES, 8)).isNotSameAs(reused)
                .isNotSameAs(DecisionBuffers.scores(explained, Use.PREFILL_SCORES, 8));
        assertThat(DecisionBuffers.scoresKept(LoadView.IDLE)).isTrue();
    }

    @Test
    void subset_theSameOneEmptied_readsThePodsAtItsPositions() {
        List<Pod> whole = List.of(pod("p1").prefill("rs1").build(), pod("p2").prefill("rs1").build(),
                pod("p3").prefill("rs2").build());
        PodSubset kept = buffers.subset(Use.PREFILL_KEPT_PODS, whole, 1);
        kept.add(0);
        kept.add(2); // past the capacity asked for: it grows
        assertThat(kept).containsExactly(whole.get(0), whole.get(2));
        assertThatThrownBy(() -> kept.get(2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(buffers.subset(Use.PREFILL_KEPT_PODS, whole, 3)).isSameAs(kept).isEmpty();
        assertThat(buffers.subset(Use.DECODE_WARM_PODS, whole, 3)).isNotSameAs(kept);
    }

    @Test
    void everyUse_itsOwnArray() {
        for (Use a : Use.values()) {
            for (Use b : Use.values()) {
                if (a != b) {
                    assertThat(buffers.doubles(a, 4)).as(a + " / " + b).isNotSameAs(buffers.doubles(b, 4));
                    assertThat(buffers.flags(a, 4)).as(a + " / " + b).isNotSameAs(buffers.flags(b, 4));
                    assertThat(buffers.ints(a, 4)).as(a + " / " + b).isNotSameAs(buffers.ints(b, 4));
                }
            }
        }
    }

    @Test
    void aViewWithoutBuffers_freshZeroedArrays() {
        double[] first = DecisionBuffers.doubles(LoadView.IDLE, Use.DECODE_COUNT, 4);
        first[0] = 5;
        assertThat(DecisionBuffers.doubles(LoadView.IDLE, Use.DECODE_COUNT, 4)).isNotSameAs(first).containsOnly(0);
        ClusterLoad plain = new ClusterLoad(new RequestLedger(), new TokenLedger(), pod -> PodMetrics.ABSENT, 0);
        assertThat(DecisionBuffers.ints(plain, Use.PREFIX_PERCENT, 2)).isNotSameAs(
                DecisionBuffers.ints(plain, Use.PREFIX_PERCENT, 2));
    }
}
