package io.pdgateway.core.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The block table answers as a map would, through growth, probe runs, deletions inside them and the hash 0. */
class BlockTableTest {
    @Test
    void randomPutsAndRemoves_matchAMap_includingCollidingHashesAndZero() {
        SplittableRandom random = new SplittableRandom(11);
        // Hashes that share their low bits land in one probe run of a small table; 0 is a legal hash too.
        long[] universe = new long[400];
        for (int i = 0; i < universe.length; i++) {
            universe[i] = i % 4 == 0 ? (long) i << 40 : random.nextLong();
        }
        universe[7] = 0;
        BlockTable table = new BlockTable(4);
        Map<Long, Integer> reference = new HashMap<>();
        for (int step = 0; step < 50_000; step++) {
            long hash = universe[random.nextInt(universe.length)];
            if (random.nextInt(3) == 0) {
                table.remove(hash);
                reference.remove(hash);
            } else {
                int entry = random.nextInt(1_000_000);
                table.put(hash, entry);
                reference.put(hash, entry);
            }
            if (step % 97 == 0) {
                for (long h : universe) {
                    assertThat(table.get(h)).as("hash %d at step %d", h, step).isEqualTo(reference.getOrDefault(h, -1));
                }
                assertThat(table.size()).isEqualTo(reference.size());
            }
        }
    }

    @Test
    void theZeroHash_isHeldApart_andRemovable() {
        BlockTable table = new BlockTable(4);
        assertThat(table.get(0)).isEqualTo(-1);
        table.put(0, 5);
        table.put(1L << 40, 6); // would share slot 0 with the zero hash
        assertThat(table.get(0)).isEqualTo(5);
        assertThat(table.get(1L << 40)).isEqualTo(6);
        assertThat(table.size()).isEqualTo(2);
        table.remove(0);
        assertThat(table.get(0)).isEqualTo(-1);
        assertThat(table.get(1L << 40)).isEqualTo(6);
        assertThat(table.size()).isEqualTo(1);
    }
}
