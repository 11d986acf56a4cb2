package io.pdgateway.routingsim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The engine's prefix cache: hits are the leading blocks present, the least recently used block goes first past the
 * capacity, and a lookup refreshes what it finds. Checked against a LinkedHashMap model under random traffic.
 */
class PrefixBlockCacheTest {

    @Test
    void leadingHits_stopAtTheFirstMissingBlock() {
        PrefixBlockCache cache = new PrefixBlockCache(100);
        cache.insert(new long[] {1, 2, 3});
        assertThat(cache.leadingHits(new long[] {1, 2, 3, 4})).isEqualTo(3);
        assertThat(cache.leadingHits(new long[] {1, 9, 3})).isEqualTo(1);
        assertThat(cache.leadingHits(new long[] {9, 1, 2})).isZero();
        assertThat(cache.peekLeadingHits(new long[] {1, 2})).isEqualTo(2);
    }

    @Test
    void pastCapacity_leastRecentlyUsedGoesFirst_lookupsRefresh() {
        PrefixBlockCache cache = new PrefixBlockCache(3);
        cache.insert(new long[] {1, 2, 3});
        cache.leadingHits(new long[] {1}); // 1 is now the most recent; 2 the least
        cache.insert(new long[] {4});
        assertThat(cache.size()).isEqualTo(3);
        assertThat(cache.peekLeadingHits(new long[] {2})).isZero();
        assertThat(cache.peekLeadingHits(new long[] {1})).isEqualTo(1);
        assertThat(cache.peekLeadingHits(new long[] {3})).isEqualTo(1);
        assertThat(cache.peekLeadingHits(new long[] {4})).isEqualTo(1);
    }

    @Test
    void randomTraffic_agreesWithALinkedHashMapModel() {
        int capacity = 2_000;
        PrefixBlockCache cache = new PrefixBlockCache(capacity);
        Map<Long, Boolean> model = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                return size() > capacity;
            }
        };
        SplittableRandom random = new SplittableRandom(3);
        for (int round = 0; round < 20_000; round++) {
            long[] prompt = new long[1 + random.nextInt(20)];
            long base = random.nextInt(300);
            for (int i = 0; i < prompt.length; i++) {
                prompt[i] = base * 1_000 + i; // prompts with the same base share leading blocks
            }
            if (random.nextBoolean()) {
                int expected = 0;
                while (expected < prompt.length && model.get(prompt[expected]) != null) {
                    expected++;
                }
                assertThat(cache.leadingHits(prompt)).as("round %d", round).isEqualTo(expected);
            } else {
                cache.insert(prompt);
                for (long block : prompt) {
                    model.put(block, Boolean.TRUE);
                }
            }
            assertThat(cache.size()).isEqualTo(model.size());
        }
    }
}
