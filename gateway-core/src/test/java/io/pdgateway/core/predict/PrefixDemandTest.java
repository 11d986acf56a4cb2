package io.pdgateway.core.predict;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * predicted_ttft's prefix demand: every block of a routed prompt counts one request for the prefix it ends, over a
 * sliding ten-second window (two windows blended by the time into the current one); unknown prefixes read 0.
 */
class PrefixDemandTest {
    private static final long SECOND = 1_000_000_000L;
    /** A system prompt of two blocks, then two conversations' own blocks. */
    private static final long[] FIRST = {11, 12, 21};
    private static final long[] SECOND_CHAT = {11, 12, 31};

    @Test
    void everyPrefixOfARoutedPromptCountsOnce() {
        PrefixDemand demand = new PrefixDemand();
        demand.record(FIRST, 0);
        demand.record(SECOND_CHAT, SECOND);
        demand.record(SECOND_CHAT, 2 * SECOND);

        assertThat(demand.requests(12, 2 * SECOND)).as("the shared system prompt").isEqualTo(3);
        assertThat(demand.requests(21, 2 * SECOND)).as("the first conversation").isEqualTo(1);
        assertThat(demand.requests(31, 2 * SECOND)).as("the second conversation").isEqualTo(2);
        assertThat(demand.requests(99, 2 * SECOND)).as("a prefix never routed").isZero();
    }

    @Test
    void requestsFadeOutOverTheNextWindow() {
        PrefixDemand demand = new PrefixDemand();
        for (int i = 0; i < 10; i++) {
            demand.record(FIRST, i * SECOND / 2); // 10 requests in the first five seconds of window 0
        }
        // Window 1, a quarter in: the previous window's 10 count three quarters.
        assertThat(demand.requests(12, PrefixDemand.WINDOW_NANOS + PrefixDemand.WINDOW_NANOS / 4)).isEqualTo(7.5);
        // Two windows later nothing is left.
        assertThat(demand.requests(12, 2 * PrefixDemand.WINDOW_NANOS + 1)).isZero();
    }

    @Test
    void aPopularPrefixKeepsItsSlotAgainstOneOffBlocks() {
        PrefixDemand demand = new PrefixDemand();
        for (int i = 0; i < 5; i++) {
            demand.record(FIRST, i);
        }
        // 200,000 one-off blocks: far more than the table's slots, so many compete for the popular prefix's pair.
        long[] oneOff = new long[200_000];
        for (int i = 0; i < oneOff.length; i++) {
            oneOff[i] = 1_000_000L + i;
        }
        demand.record(oneOff, 10);

        assertThat(demand.requests(12, 10)).isEqualTo(5);
    }
}
