package io.pdgateway.core.prefix;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.Pod;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Match percentages per pod, chained hashes, model separation, capacity and TTL eviction (reference §7). */
class PrefixIndexTest {
    private final Pod a = pod("a").build();
    private final Pod b = pod("b").build();

    private static long[] hash(String model, String text) {
        return PrefixHasher.hash(model, text.getBytes(StandardCharsets.UTF_8), 4);
    }

    @Test
    void match_percentOfLeadingBlocksEachPodHolds() {
        PrefixIndex index = new PrefixIndex(1000, Long.MAX_VALUE);
        long[] prompt = hash("m", "0123456789abcdefghij"); // 5 blocks
        index.add(prompt, a.id(), 0);
        index.add(Arrays.copyOf(prompt, 2), b.id(), 0);
        assertThat(index.match(prompt, List.of(a, b))).containsEntry(a.id(), 100).containsEntry(b.id(), 40);
        // A different third block: the chain diverges, so only the first two blocks match for both.
        long[] other = hash("m", "01234567XXXXefghij__");
        assertThat(index.match(other, List.of(a, b))).containsEntry(a.id(), 40).containsEntry(b.id(), 40);
    }

    @Test
    void hashes_chainedAndPerModel_partialBlockIgnored() {
        assertThat(hash("m", "abcdefg")).hasSize(1);
        assertThat(hash("m", "abcd")[0]).isNotEqualTo(hash("other-model", "abcd")[0]);
        assertThat(hash("m", "xxxxabcd")[1]).isNotEqualTo(hash("m", "yyyyabcd")[1]);
        assertThat(hash("m", "abc")).isEmpty();
    }

    @Test
    void capacityAndTtl_evictOldest() {
        PrefixIndex index = new PrefixIndex(3, 10);
        index.add(hash("m", "aaaabbbb"), a.id(), 0);     // 2 blocks at t=0
        index.add(hash("m", "ccccdddd"), b.id(), 5);     // 2 more at t=5: capacity 3 drops the oldest
        assertThat(index.size()).isEqualTo(3);
        index.evictExpired(12);                           // t=0 blocks are older than 10
        assertThat(index.size()).isEqualTo(2);
        assertThat(index.match(hash("m", "ccccdddd"), List.of(b))).containsEntry(b.id(), 100);
    }
}
