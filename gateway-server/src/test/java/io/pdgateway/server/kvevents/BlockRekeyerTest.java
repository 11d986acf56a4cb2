package io.pdgateway.server.kvevents;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.cache.BlockHasher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Re-keying engine blocks to the gateway's 16-token content hashes: for engine block sizes 16, 32, 1 (SGLang's pages)
 * and 5 the gateway hashes equal {@link BlockHasher#chain} over the same tokens; removals, parents the pod never
 * reported, token counts that do not fit, LoRA chains and the memory bound.
 */
class BlockRekeyerTest {
    private static final String MODEL = "llama";
    private static final int[] PROMPT = IntStream.range(0, 64).map(i -> 1000 + i * 7).toArray();
    private static final long[] EXPECTED = BlockHasher.chain(BlockHasher.seed(MODEL), PROMPT, PROMPT.length, 16);

    private final List<long[]> forgotten = new ArrayList<>();
    private final BlockRekeyer rekeyer = new BlockRekeyer(MODEL, 1_000, forgotten::add);

    @Test
    void blockSize16_oneEventThenAContinuation_matchTheGatewayChain() {
        long[] first = rekeyer.store(stored(new long[] {1, 2, 3}, null, slice(0, 48), 16)).gatewayHashes();
        long[] next = rekeyer.store(stored(new long[] {4}, 3L, slice(48, 64), 16)).gatewayHashes();

        assertThat(first).containsExactly(EXPECTED[0], EXPECTED[1], EXPECTED[2]);
        assertThat(next).containsExactly(EXPECTED[3]);
    }

    @Test
    void blockSize32_eachEngineBlockCompletesTwo_andItsRemovalRemovesBoth() {
        long[] hashes = rekeyer.store(stored(new long[] {7, 8}, null, slice(0, 64), 32)).gatewayHashes();

        assertThat(hashes).containsExactly(EXPECTED);
        assertThat(rekeyer.remove(new long[] {8})).containsExactly(EXPECTED[2], EXPECTED[3]);
    }

    @Test
    void sglangPagesOfOneToken_completeAGatewayBlockEverySixteenth() {
        List<Long> emitted = new ArrayList<>();
        Long parent = null;
        for (int i = 0; i < 40; i++) { // one BlockStored per page, chained by parent, as SGLang's recorder emits them
            long[] out = rekeyer.store(stored(new long[] {500 + i}, parent, slice(i, i + 1), 1)).gatewayHashes();
            Arrays.stream(out).forEach(emitted::add);
            parent = 500L + i;
        }

        assertThat(emitted).containsExactly(EXPECTED[0], EXPECTED[1]);
        assertThat(rekeyer.remove(new long[] {500 + 31})).containsExactly(EXPECTED[1]);
        assertThat(rekeyer.remove(new long[] {500 + 30, 500 + 39})).isEmpty();
    }

    @Test
    void coalescedPages_oneEventManyPages_sameHashes() {
        long[] pageHashes = LongStream.range(900, 964).toArray();
        long[] out = rekeyer.store(stored(pageHashes, null, slice(0, 64), 1)).gatewayHashes();

        assertThat(out).containsExactly(EXPECTED);
    }

    @Test
    void blockSize5_blocksStraddleTheGatewayBoundary() {
        long[] out = rekeyer.store(stored(new long[] {1, 2, 3, 4, 5, 6, 7}, null, slice(0, 35), 5)).gatewayHashes();
        long[] more = rekeyer.store(stored(new long[] {8}, 7L, slice(35, 40), 5)).gatewayHashes();

        assertThat(out).containsExactly(EXPECTED[0], EXPECTED[1]);
        assertThat(more).isEmpty();
        assertThat(rekeyer.remove(new long[] {4})).containsExactly(EXPECTED[0]); // tokens 15..19 completed block 0
    }

    @Test
    void unknownParent_orTokensThatDoNotSplit_fail() {
        assertThat(rekeyer.store(stored(new long[] {1}, 99L, slice(0, 16), 16)).failure())
                .isEqualTo(BlockRekeyer.Failure.UNRESOLVED_PARENT);
        assertThat(rekeyer.store(stored(new long[] {1, 2}, null, slice(0, 17), 16)).failure())
                .isEqualTo(BlockRekeyer.Failure.BAD_SHAPE);
        assertThat(rekeyer.size()).isZero();
    }

    @Test
    void removalOfUnknownBlocks_isIgnored_andClearForgetsAll() {
        rekeyer.store(stored(new long[] {1}, null, slice(0, 16), 16));

        assertThat(rekeyer.remove(new long[] {42})).isEmpty();
        rekeyer.clear();
        assertThat(rekeyer.store(stored(new long[] {2}, 1L, slice(16, 32), 16)).failure())
                .isEqualTo(BlockRekeyer.Failure.UNRESOLVED_PARENT);
    }

    @Test
    void loraBlocks_chainFromTheAdaptersSeed() {
        BlockStored lora = new BlockStored(new long[] {1}, null, slice(0, 16), 16, 3, "sql-adapter", "GPU", null, null);

        assertThat(rekeyer.store(lora).gatewayHashes())
                .containsExactly(BlockHasher.chain(BlockHasher.seed("sql-adapter"), PROMPT, 16, 16));
    }

    @Test
    void beyondTheBound_theLeastRecentlyUsedIsForgotten_andItsGatewayBlocksHandedBack() {
        BlockRekeyer small = new BlockRekeyer(MODEL, 2, forgotten::add);
        small.store(stored(new long[] {1, 2}, null, slice(0, 32), 16));
        small.store(stored(new long[] {3}, 2L, slice(32, 48), 16)); // 1 is the eldest: out

        assertThat(forgotten).hasSize(1);
        assertThat(forgotten.get(0)).containsExactly(EXPECTED[0]);
        assertThat(small.size()).isEqualTo(2);
    }

    private static BlockStored stored(long[] hashes, Long parent, int[] tokens, int blockSize) {
        return new BlockStored(hashes, parent, tokens, blockSize, null, null, "GPU", null, null);
    }

    private static int[] slice(int from, int to) {
        return Arrays.copyOfRange(PROMPT, from, to);
    }
}
