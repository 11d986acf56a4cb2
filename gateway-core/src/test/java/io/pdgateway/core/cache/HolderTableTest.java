package io.pdgateway.core.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The holder table counts as a map of counts would, and its marks are the OR of every mark added since the block's
 * count was last 0, through growth, probe runs, deletions inside them and the hash 0.
 */
class HolderTableTest {
    @Test
    void randomAddsAndRemoves_countAndMarkAsAMap_includingCollidingHashesAndZero() {
        SplittableRandom random = new SplittableRandom(13);
        long[] universe = new long[300];
        for (int i = 0; i < universe.length; i++) {
            universe[i] = i % 4 == 0 ? (long) i << 40 : random.nextLong(); // shared low bits: one probe run
        }
        universe[5] = 0;
        HolderTable table = new HolderTable(4);
        Map<Long, Integer> counts = new HashMap<>();
        Map<Long, Long> marks = new HashMap<>();
        for (int step = 0; step < 60_000; step++) {
            long hash = universe[random.nextInt(universe.length)];
            if (random.nextInt(5) < 2) {
                table.remove(hash);
                Integer left = counts.computeIfPresent(hash, (h, c) -> c > 1 ? c - 1 : null);
                if (left == null) {
                    marks.remove(hash);
                }
            } else {
                long mark = HolderTable.markOf(random.nextInt(200));
                table.add(hash, mark);
                counts.merge(hash, 1, Integer::sum);
                marks.merge(hash, mark, (a, b) -> a | b);
            }
            if (step % 101 == 0) {
                for (long h : universe) {
                    assertThat(table.count(h)).as("count of %d at step %d", h, step).isEqualTo(counts.getOrDefault(h, 0));
                    assertThat(HolderTable.marksIn(table.entry(h))).as("marks of %d at step %d", h, step).isEqualTo(marks.getOrDefault(h, 0L));
                }
                assertThat(table.size()).isEqualTo(counts.size());
            }
        }
    }

    @Test
    void marks_areOneBitPerPod_sharedEveryMarkBitsPods_andNeverTheCount() {
        assertThat(Long.bitCount(HolderTable.markOf(0))).isEqualTo(1);
        assertThat(HolderTable.markOf(3)).isEqualTo(HolderTable.markOf(3 + HolderTable.MARK_BITS))
                .isNotEqualTo(HolderTable.markOf(4));
        HolderTable table = new HolderTable(4);
        for (int n = 0; n < 1000; n++) {
            table.add(42, HolderTable.markOf(n));
        }
        assertThat(table.count(42)).isEqualTo(1000);
        assertThat(Long.bitCount(HolderTable.marksIn(table.entry(42)))).isEqualTo(HolderTable.MARK_BITS);
    }
}
