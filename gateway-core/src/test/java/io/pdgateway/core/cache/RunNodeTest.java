package io.pdgateway.core.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A run's entry table answers as a map from pod view to entry would, through growth, probe runs that wrap around the
 * table's end and deletions inside them; and the node index keeps the hash 0 and lets removed nodes go.
 */
class RunNodeTest {
    @Test
    void randomPutsAndRemoves_matchAMap_acrossWrappedProbeRuns() {
        SplittableRandom random = new SplittableRandom(3);
        PodView[] views = new PodView[300];
        for (int i = 0; i < views.length; i++) {
            // Indices that share their low bits crowd one probe run; the high ones wrap around a small table.
            int index = i % 3 == 0 ? i << 8 : i % 3 == 1 ? (i << 8) - 1 : i;
            views[i] = new PodView("p" + i, "10.0.0." + i, index, 100);
        }
        RunNode node = new RunNode(new long[] {1, 2, 3}, null);
        Map<PodView, TreeEntry> reference = new HashMap<>();
        for (int step = 0; step < 40_000; step++) {
            PodView view = views[random.nextInt(views.length)];
            TreeEntry present = reference.get(view);
            if (present != null && random.nextInt(2) == 0) {
                node.remove(present);
                reference.remove(view);
            } else if (present == null) {
                TreeEntry entry = new TreeEntry(view, node);
                node.put(entry);
                reference.put(view, entry);
            }
            if (step % 101 == 0) {
                for (PodView v : views) {
                    assertThat(node.entry(v)).as("%s at step %d", v.podId, step).isSameAs(reference.get(v));
                }
                assertThat(node.entryCount()).isEqualTo(reference.size());
                int slotted = 0;
                for (TreeEntry e : node.slots()) {
                    slotted += e == null ? 0 : 1;
                }
                assertThat(slotted).as("every entry once in the slots").isEqualTo(reference.size());
                assertThat(node.slots().length).as("as wide as its entries need, within a factor")
                        .isLessThanOrEqualTo(Math.max(16, 8 * reference.size()));
            }
        }
    }

    @Test
    void aRunMostPodsLeft_narrowsItsTable_keepingTheRest() {
        RunNode node = new RunNode(new long[] {1}, null);
        TreeEntry[] entries = new TreeEntry[200];
        for (int i = 0; i < entries.length; i++) {
            entries[i] = new TreeEntry(new PodView("p" + i, "10.0.0.1", i, 100), node);
            node.put(entries[i]);
        }
        int wide = node.slots().length;
        for (int i = 3; i < entries.length; i++) {
            node.remove(entries[i]);
        }
        assertThat(node.slots().length).as("from %d slots", wide).isLessThanOrEqualTo(16);
        for (int i = 0; i < 3; i++) {
            assertThat(node.entry(entries[i].view)).isSameAs(entries[i]);
        }
        assertThat(node.entry(entries[3].view)).isNull();
    }

    @Test
    void nodeIndex_holdsTheZeroHashApart_andForgetsRemovedNodes() {
        NodeIndex<RunNode> index = new NodeIndex<>(4);
        RunNode zero = new RunNode(new long[] {0}, null);
        RunNode other = new RunNode(new long[] {1L << 40}, null);
        index.put(0, zero);
        index.put(1L << 40, other); // would share slot 0 with the zero hash
        assertThat(index.get(0)).isSameAs(zero);
        assertThat(index.get(1L << 40)).isSameAs(other);
        assertThat(index.size()).isEqualTo(2);
        index.remove(0);
        index.remove(1L << 40);
        assertThat(index.get(0)).isNull();
        assertThat(index.get(1L << 40)).isNull();
        assertThat(index.size()).isZero();
        assertThat((Object[]) index.values()).as("no removed node stays reachable").containsOnlyNulls();
    }
}
