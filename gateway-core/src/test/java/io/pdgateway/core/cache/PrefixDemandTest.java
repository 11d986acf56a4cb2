package io.pdgateway.core.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
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

        assertThat(demand.requests(FIRST, 2, 2 * SECOND)).as("the shared system prompt").isEqualTo(3);
        assertThat(demand.requests(FIRST, 3, 2 * SECOND)).as("the first conversation").isEqualTo(1);
        assertThat(demand.requests(SECOND_CHAT, 3, 2 * SECOND)).as("the second conversation").isEqualTo(2);
        assertThat(demand.requests(new long[] {99}, 1, 2 * SECOND)).as("a prefix never routed").isZero();
    }

    @Test
    void requestsFadeOutOverTheNextWindow() {
        PrefixDemand demand = new PrefixDemand();
        for (int i = 0; i < 10; i++) {
            demand.record(FIRST, i * SECOND / 2); // 10 requests in the first five seconds of window 0
        }
        // Window 1, a quarter in: the previous window's 10 count three quarters.
        assertThat(demand.requests(FIRST, 2, PrefixDemand.WINDOW_NANOS + PrefixDemand.WINDOW_NANOS / 4)).isEqualTo(7.5);
        // Two windows later nothing is left.
        assertThat(demand.requests(FIRST, 2, 2 * PrefixDemand.WINDOW_NANOS + 1)).isZero();
    }

    @Test
    void aPrefixEveryRequestCarriesStaysWhileOneOffPromptsFlushTheRest() {
        PrefixDemand demand = new PrefixDemand();
        demand.record(FIRST, 0);
        // One-off conversations behind the same system prompt, 400,000 blocks in all: three times the tree's bound.
        long[] oneOff = new long[202];
        oneOff[0] = 11;
        oneOff[1] = 12;
        for (int c = 0; c < 2_000; c++) {
            for (int i = 2; i < oneOff.length; i++) {
                oneOff[i] = 1_000_000L * (c + 1) + i;
            }
            demand.record(oneOff, 10);
            assertThat(demand.blocks()).isLessThanOrEqualTo(PrefixDemand.MAX_BLOCKS);
        }

        assertThat(demand.requests(FIRST, 2, 10)).as("the system prompt").isEqualTo(2_001);
        assertThat(demand.requests(FIRST, 3, 10)).as("a conversation not carried since").isZero();
        assertThat(demand.requests(oneOff, oneOff.length, 10)).as("the last one-off").isEqualTo(1);
    }

    @Test
    void aRunIsForgottenOnlyAfterTheRunsBelowIt() {
        PrefixDemand demand = new PrefixDemand();
        demand.record(new long[] {1, 2, 3, 4}, 0);
        demand.record(new long[] {1, 2, 5, 6}, 0); // runs [1, 2], [3, 4] and [5, 6]
        // One-block prompts: each past the bound on runs forgets one run.
        for (int p = 0; p < 2 * PrefixDemand.MAX_RUNS && demand.startsRun(1); p++) {
            demand.record(new long[] {1_000_000L + p}, 0);
            if (!demand.startsRun(1)) {
                assertThat(demand.startsRun(3) || demand.startsRun(5)).as("a run below a forgotten one").isFalse();
            }
        }
        assertThat(demand.startsRun(1)).as("flushed by unrelated prompts").isFalse();
    }

    @Test
    void onlyAPromptsFirstBlocksUpToTheBoundCount() {
        long[] longest = new long[PrefixDemand.MAX_PROMPT_BLOCKS + 10];
        for (int i = 0; i < longest.length; i++) {
            longest[i] = 7_000 + i;
        }
        PrefixDemand demand = new PrefixDemand();
        demand.record(longest, 0);

        assertThat(demand.requests(longest, PrefixDemand.MAX_PROMPT_BLOCKS, 0)).isEqualTo(1);
        assertThat(demand.requests(longest, longest.length, 0)).isZero();
        assertThat(demand.blocks()).isEqualTo(PrefixDemand.MAX_PROMPT_BLOCKS);
    }

    @Test
    void everyDepthOfPromptsThatEndOrPartInsideEachOther() {
        // Two prompts of 28 blocks sharing their first 12, a third sharing only the first block, a fourth ending
        // inside the first after 5 blocks.
        int blocks = 28;
        long[] first = new long[blocks];
        for (int i = 0; i < blocks; i++) {
            first[i] = 1_000 + i;
        }
        int shared = 12;
        long[] second = Arrays.copyOf(first, blocks);
        for (int i = shared; i < blocks; i++) {
            second[i] = 2_000 + i;
        }
        long[] third = {1_000, 3_000};
        long[] fourth = Arrays.copyOf(first, 5);
        PrefixDemand demand = new PrefixDemand();
        demand.record(first, 0);
        demand.record(second, 0);
        demand.record(third, 0);
        demand.record(fourth, 0);

        for (int depth = 1; depth <= blocks; depth++) {
            double both = (depth == 1 ? 4 : depth <= 5 ? 3 : depth <= shared ? 2 : 1);
            assertThat(demand.requests(first, depth, 0)).as("the first prompt's %d blocks", depth).isEqualTo(both);
            assertThat(demand.requests(second, depth, 0)).as("the second prompt's %d blocks", depth).isEqualTo(both);
        }
        assertThat(demand.requests(third, 2, 0)).isEqualTo(1);
        assertThat(demand.requests(first, 0, 0)).as("no blocks").isZero();
        assertThat(demand.blocks()).as("each distinct block once").isEqualTo(blocks + (blocks - shared) + 1);
    }

    /**
     * Random prompts branching off each other at every depth, recorded in random order: every prefix of every prompt
     * reads what counting the requests that carried it (by its last block's chained hash) reads.
     */
    @Test
    void agreesWithCountingEveryPrefix() {
        SplittableRandom random = new SplittableRandom(5);
        for (int round = 0; round < 50; round++) {
            List<long[]> prompts = new ArrayList<>();
            long next = 1;
            for (int p = 0; p < 12; p++) {
                long[] from = prompts.isEmpty() ? new long[0] : prompts.get(random.nextInt(prompts.size()));
                long[] prompt = Arrays.copyOf(from, 1 + random.nextInt(40));
                for (int i = random.nextInt(Math.min(from.length, prompt.length) + 1); i < prompt.length; i++) {
                    prompt[i] = next++;
                }
                prompts.add(prompt);
            }
            PrefixDemand demand = new PrefixDemand();
            Map<Long, Integer> carried = new HashMap<>();
            for (int r = 0; r < 40; r++) {
                long[] prompt = prompts.get(random.nextInt(prompts.size()));
                demand.record(prompt, SECOND);
                for (long hash : prompt) {
                    carried.merge(hash, 1, Integer::sum);
                }
            }
            for (long[] prompt : prompts) {
                for (int depth = 1; depth <= prompt.length; depth++) {
                    assertThat(demand.requests(prompt, depth, SECOND)).as("round %d", round)
                            .isEqualTo(carried.getOrDefault(prompt[depth - 1], 0).doubleValue());
                }
            }
        }
    }
}
