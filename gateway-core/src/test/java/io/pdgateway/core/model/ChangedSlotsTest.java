package io.pdgateway.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bits by which ledger writers tell a model's rows which slots to copy again. */
class ChangedSlotsTest {
    @Test
    void drain_visitsEachMarkedSlotOnce_acrossWords_thenNothing() {
        ChangedSlots changed = new ChangedSlots(200);
        for (int slot : new int[] {0, 63, 64, 130, 199, 64}) {
            changed.mark(slot).set();
        }
        List<Integer> visited = new ArrayList<>();
        changed.drain(visited::add);
        assertThat(visited).containsExactly(0, 63, 64, 130, 199);
        visited.clear();
        changed.drain(visited::add);
        assertThat(visited).isEmpty();
    }

    @Test
    void aChangeLandingWhileItsSlotIsCopied_isCopiedAgainNextTime() {
        // A writer may change an entry while the rows copy it: the copy may have read the old values, so the slot
        // must stay marked for the next decision (the bit is cleared before the copy, not after).
        ChangedSlots changed = new ChangedSlots(8);
        changed.mark(5).set();
        List<Integer> visited = new ArrayList<>();
        changed.drain(slot -> {
            visited.add(slot);
            if (visited.size() == 1) {
                changed.mark(slot).set(); // the writer's change, landing mid-copy
            }
        });
        changed.drain(visited::add);
        assertThat(visited).containsExactly(5, 5);
    }
}
