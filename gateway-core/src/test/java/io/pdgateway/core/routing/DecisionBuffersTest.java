package io.pdgateway.core.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.TokenLedger;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import org.junit.jupiter.api.Test;

/**
 * A model's working arrays: the same array again for the same use and length (nothing allocated from one decision to
 * the next), never one array for two uses (stages of one decision cannot overwrite each other's), exactly the length
 * asked for (stages loop over the whole array), and fresh arrays for a load view without buffers.
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
