package io.pdgateway.core.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A released hold's array serves the next hold of its size; what waits is bounded. */
class NodeArraysTest {
    private final NodeArrays arrays = new NodeArrays();

    @Test
    void aGivenArray_isTakenAgain_forAnyLengthItFits() {
        int[] first = arrays.take(500);
        assertThat(first.length).isEqualTo(512);
        arrays.give(first);
        assertThat(arrays.take(300)).as("300 rounds up to 512 too").isSameAs(first);
        assertThat(arrays.take(500)).as("none left: a new one").isNotSameAs(first).hasSize(512);
        assertThat(arrays.take(1)).hasSize(1);
        assertThat(arrays.take(0)).hasSize(1);
    }

    @Test
    void onlyAFewArraysWaitPerSize_andNoneOfTheLargest() {
        List<int[]> taken = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            taken.add(arrays.take(16));
        }
        taken.forEach(arrays::give);
        List<int[]> again = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            again.add(arrays.take(16));
        }
        assertThat(again.stream().filter(a -> taken.stream().anyMatch(t -> t == a)).count()).isEqualTo(8);
        int[] huge = arrays.take(1 << 17);
        arrays.give(huge);
        assertThat(arrays.take(1 << 17)).as("past 64K blocks nothing is kept").isNotSameAs(huge);
    }
}
