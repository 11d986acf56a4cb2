package io.pdgateway.core.model;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A pod's slot is its position in the snapshot's pod list, found by identity whatever order pods are asked in: the
 * side lists in order, the same pod twice, backwards, shuffled; a pod object a later snapshot shares (and stamped with
 * its own position) keeps its slot in both; a pod object of another snapshot has none.
 */
class PodSlotsTest {
    private final ModelPods model = ModelPods.of("m", pods(40));

    private static List<Pod> pods(int rolesets) {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < rolesets; i++) {
            pods.add(pod("p" + i).prefill("rs" + i).build());
            pods.add(pod("d" + i).decode("rs" + i).build());
            if (i % 7 == 0) {
                pods.add(pod("d" + i + "b").decode("rs" + i).build()); // a second decode pod in some rolesets
            }
        }
        pods.add(pod("plain").build());
        return pods;
    }

    @Test
    void sideListsInOrder_eachPodTwice_thePodsOwnPosition() {
        PodSlots slots = new PodSlots(model);
        for (List<Pod> side : List.of(model.prefillPods(), model.decodePods(), model.prefillPods())) {
            for (Pod pod : side) {
                assertThat(slots.slot(pod)).isEqualTo(model.pods().indexOf(pod));
                assertThat(slots.slot(pod)).as("asked again").isEqualTo(model.pods().indexOf(pod));
            }
        }
    }

    @Test
    void anyOrder_samePositions() {
        PodSlots slots = new PodSlots(model);
        List<Pod> shuffled = new ArrayList<>(model.pods());
        Collections.shuffle(shuffled, new Random(3));
        List<Pod> backwards = new ArrayList<>(model.decodePods());
        Collections.reverse(backwards);
        for (List<Pod> order : List.of(shuffled, backwards, model.pods())) {
            for (Pod pod : order) {
                assertThat(slots.slot(pod)).as(pod.id()).isEqualTo(model.pods().indexOf(pod));
            }
        }
    }

    @Test
    void aPodObjectALaterSnapshotShares_hasItsPositionInEach() {
        PodSlots before = new PodSlots(model);
        List<Pod> grown = new ArrayList<>(model.pods());
        grown.add(0, pod("a-new-first-pod").build()); // sorts first: every shared pod moves one position on
        ModelPods later = ModelPods.of("m", grown);
        PodSlots after = new PodSlots(later);
        for (Pod pod : model.pods()) {
            assertThat(before.slot(pod)).as("earlier snapshot " + pod.id()).isEqualTo(model.pods().indexOf(pod));
            assertThat(after.slot(pod)).as("later snapshot " + pod.id()).isEqualTo(later.pods().indexOf(pod));
            assertThat(after.slot(pod)).isEqualTo(before.slot(pod) + 1);
        }
    }

    @Test
    void anEqualPodOfAnotherSnapshot_hasNoSlot() {
        PodSlots slots = new PodSlots(model);
        Pod same = pod("p3").prefill("rs3").build();
        assertThat(model.pods()).as("equal by value...").contains(same);
        assertThat(slots.slot(same)).as("...but not one of this snapshot's objects").isEqualTo(-1);
        assertThat(slots.size()).isEqualTo(model.pods().size());
    }

    @Test
    void subsetsWithGapsOfAnyLength_andBothSidesInterleaved_samePositions() {
        PodSlots slots = new PodSlots(model);
        List<Pod> prefills = model.prefillPods();
        List<Pod> decodes = model.decodePods();
        // Gaps short and long, as the stddev skip and a roleset's chosen pod leave them.
        int[] gaps = {0, 1, 3, 0, 15, 16, 18, 2};
        int p = 0;
        int d = 0;
        for (int g = 0; p < prefills.size() || d < decodes.size(); g++) {
            if (p < prefills.size()) {
                Pod pod = prefills.get(p);
                assertThat(slots.slot(pod)).as(pod.id()).isEqualTo(model.pods().indexOf(pod));
            }
            if (d < decodes.size()) {
                Pod pod = decodes.get(d);
                assertThat(slots.slot(pod)).as(pod.id()).isEqualTo(model.pods().indexOf(pod));
            }
            if (p > 0 && p - 1 < prefills.size()) { // a pod just behind the cursor, read again
                Pod pod = prefills.get(p - 1);
                assertThat(slots.slot(pod)).as("again " + pod.id()).isEqualTo(model.pods().indexOf(pod));
            }
            p += 1 + gaps[g % gaps.length];
            d += 1 + gaps[(g + 3) % gaps.length];
        }
        Pod plain = model.otherPods().get(0);
        assertThat(slots.slot(plain)).as("a pod on neither side").isEqualTo(model.pods().indexOf(plain));
    }

    @Test
    void computingPosition_isThePositionInTheComputingPods() {
        PodSlots slots = new PodSlots(model);
        List<Pod> shuffled = new ArrayList<>(model.pods());
        Collections.shuffle(shuffled, new Random(5));
        for (List<Pod> order : List.of(model.pods(), shuffled)) {
            for (Pod pod : order) {
                assertThat(slots.computingPosition(pod)).as(pod.id())
                        .isEqualTo(model.computingPods().indexOf(pod));
            }
        }
        assertThat(slots.computingPositions().applyAsInt(pod("p3").prefill("rs3").build()))
                .as("another snapshot's object").isEqualTo(-1);
    }
}
