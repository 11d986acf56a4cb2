package io.pdgateway.core.routing;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.Pod;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A pod's score is the one at its position in the scored list, found by identity in any order: in order, with gaps
 * of any length (pods a picker skips), a pod read again, backwards, shuffled; a pod that was not scored reads NaN.
 */
class ScoredPodsTest {
    private final List<Pod> pods = new ArrayList<>();
    private final double[] values = new double[60];

    ScoredPodsTest() {
        for (int i = 0; i < values.length; i++) {
            pods.add(pod("p" + i).prefill("rs" + i / 3).build());
            values[i] = i * 1.5;
        }
    }

    @Test
    void anyOrder_eachPodsOwnScore() {
        ScoredPods scores = ScoredPods.of(pods, values);
        List<Pod> gaps = new ArrayList<>();
        for (int i = 0, step = 1; i < pods.size(); i += step, step = step % 19 + 1) {
            gaps.add(pods.get(i));
            gaps.add(pods.get(i)); // read again: the picker's chosen pod
            if (i >= 2) {
                gaps.add(pods.get(i - 2)); // a roleset's pod read again
            }
        }
        List<Pod> backwards = new ArrayList<>(pods);
        Collections.reverse(backwards);
        List<Pod> shuffled = new ArrayList<>(pods);
        Collections.shuffle(shuffled, new Random(7));
        for (List<Pod> order : List.of(pods, gaps, backwards, shuffled, pods)) {
            for (Pod pod : order) {
                assertThat(scores.score(pod)).as(pod.id()).isEqualTo(values[pods.indexOf(pod)]);
            }
        }
    }

    @Test
    void aPodThatWasNotScored_readsNaN() {
        ScoredPods scores = ScoredPods.of(pods.subList(0, 30), values);
        assertThat(scores.score(pods.get(29))).isEqualTo(values[29]);
        assertThat(scores.score(pods.get(30))).isNaN();
        assertThat(scores.score(pod("p3").prefill("rs1").build())).as("an equal pod, not the scored object").isNaN();
    }

    @Test
    void alignedToAnotherList_readsEachPodsScoreByPosition_NaNWhereUnscored() {
        ScoredPods scores = ScoredPods.of(pods.subList(0, 30), values);
        List<Pod> scoredList = pods.subList(0, 30);
        ScoredPods own = ScoredPods.of(scoredList, values);
        assertThat(own.alignedTo(scoredList)).as("over the list it was made over: itself").isSameAs(own);
        List<Pod> side = new ArrayList<>(pods.subList(25, 35));
        Collections.reverse(side);
        ScoredPods aligned = scores.alignedTo(side);
        for (int i = 0; i < side.size(); i++) {
            int original = pods.indexOf(side.get(i));
            assertThat(aligned.pod(i)).isSameAs(side.get(i));
            if (original < 30) {
                assertThat(aligned.at(i)).isEqualTo(values[original]);
            } else {
                assertThat(aligned.at(i)).as("not scored").isNaN();
            }
        }
    }

    @Test
    void lowestInARange_skipsNaNAndIneligible_tiesEquallyLikely() {
        double[] scored = {5, 1, Double.NaN, 1, 0.5, 1, 9};
        ScoredPods scores = ScoredPods.of(pods.subList(0, scored.length), scored);
        Random random = new Random(11);
        assertThat(scores.lowest(0, 7, random)).isEqualTo(4);
        assertThat(scores.lowest(2, 3, random)).as("only NaN").isEqualTo(-1);
        assertThat(scores.lowest(0, 7, position -> position != 4, random)).isIn(1, 3, 5);
        assertThat(scores.lowest(5, 7, position -> false, random)).as("none eligible").isEqualTo(-1);
        int[] times = new int[7];
        for (int i = 0; i < 3_000; i++) {
            times[scores.lowest(1, 4, random)]++; // 1 and 3 tie, 2 is NaN
        }
        assertThat(times[2]).isZero();
        assertThat(times[1]).isBetween(1_300, 1_700);
        assertThat(times[3]).isBetween(1_300, 1_700);
    }
}
