package io.pdgateway.core.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Block hashes chain (a block matches only after its whole prefix), ignore a partial tail, and separate models. */
class BlockHasherTest {
    private static final int B = BlockHasher.DEFAULT_BLOCK_TOKENS;

    private static int[] tokens(int count, int start) {
        return IntStream.range(start, start + count).toArray();
    }

    @Test
    void sharedPrefix_sameLeadingHashes_firstDifferenceBreaksEveryLaterBlock() {
        int[] a = tokens(4 * B, 0);
        int[] b = a.clone();
        b[2 * B + 3] = -7; // third block differs
        long seed = BlockHasher.seed("m");
        long[] ha = BlockHasher.chain(seed, a, a.length, B);
        long[] hb = BlockHasher.chain(seed, b, b.length, B);
        assertThat(ha).hasSize(4);
        assertThat(Arrays.copyOf(hb, 2)).containsExactly(Arrays.copyOf(ha, 2));
        assertThat(hb[2]).isNotEqualTo(ha[2]);
        assertThat(hb[3]).isNotEqualTo(ha[3]); // same tokens as a's fourth block, different prefix
    }

    @Test
    void partialTrailingBlock_hasNoHash() {
        assertThat(BlockHasher.chain(BlockHasher.seed("m"), tokens(2 * B + 5, 0), 2 * B + 5, B)).hasSize(2);
        assertThat(BlockHasher.chain(BlockHasher.seed("m"), tokens(B - 1, 0), B - 1, B)).isEmpty();
    }

    @Test
    void incrementalNext_equalsChain() {
        int[] t = tokens(3 * B, 100);
        long seed = BlockHasher.seed("m");
        long parent = seed;
        long[] chained = BlockHasher.chain(seed, t, t.length, B);
        for (int i = 0; i < 3; i++) {
            parent = BlockHasher.next(parent, t, i * B, B);
            assertThat(parent).isEqualTo(chained[i]);
        }
    }

    @Test
    void differentModels_differentHashes() {
        int[] t = tokens(B, 0);
        assertThat(BlockHasher.chain(BlockHasher.seed("a"), t, B, B))
                .doesNotContain(BlockHasher.chain(BlockHasher.seed("b"), t, B, B)[0]);
    }

    @Test
    void wordsOfBytes_hashAsTheTokensTheyMake() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        for (int length : new int[] {0, 3, 4 * B - 1, 4 * B, 4 * B + 3, 37 * 4 * B + 17}) {
            byte[] bytes = new byte[length + 5]; // room past the words: only the first `length` bytes are read
            random.nextBytes(bytes);
            int[] words = new int[length / 4];
            for (int i = 0; i < words.length; i++) {
                // Big-endian, with high bytes that sign-extend: the words are the tokens' unsigned values
                words[i] = (bytes[4 * i] & 0xff) << 24 | (bytes[4 * i + 1] & 0xff) << 16
                        | (bytes[4 * i + 2] & 0xff) << 8 | bytes[4 * i + 3] & 0xff;
            }
            long seed = BlockHasher.seed("m");
            assertThat(BlockHasher.chainOfWords(seed, bytes, words.length, B)).as("%d bytes", length)
                    .isEqualTo(BlockHasher.chain(seed, words, words.length, B));
        }
    }
}
