package io.pdgateway.core.model;

import java.util.List;

/**
 * Each pod of one {@link ModelPods} snapshot numbered by its position in {@link ModelPods#pods()} (its slot), so
 * per-pod state can live in arrays indexed by slot instead of maps keyed by pod id. Finding a pod's slot is by
 * identity (the snapshot's own Pod objects), and cheap in the order routing reads pods: a cursor follows the side list
 * (prefill or decode pods, roleset order) the last pod was found in, and only a pod that is not the next one (or the
 * same again) costs an identity-hash probe. Immutable apart from the cursor: one thread at a time (the model's lock).
 */
public final class PodSlots {
    private final ModelPods model;
    private final Pod[] keys;
    private final int[] keySlots;
    private final int mask;
    /** Per slot: which side list it is in (its position there), or -1. */
    private final int[] sidePosition;
    private final boolean[] onPrefillSide;
    private final int[] prefillSlots;
    private final int[] decodeSlots;
    private List<Pod> cursorList;
    private int[] cursorSlots;
    private int cursor;

    public PodSlots(ModelPods model) {
        this.model = model;
        List<Pod> pods = model.pods();
        int capacity = Integer.highestOneBit(Math.max(4, pods.size() * 2 - 1)) << 1;
        keys = new Pod[capacity];
        keySlots = new int[capacity];
        mask = capacity - 1;
        for (int slot = 0; slot < pods.size(); slot++) {
            Pod pod = pods.get(slot);
            int i = System.identityHashCode(pod) & mask;
            while (keys[i] != null) {
                i = (i + 1) & mask;
            }
            keys[i] = pod;
            keySlots[i] = slot;
        }
        sidePosition = new int[pods.size()];
        onPrefillSide = new boolean[pods.size()];
        java.util.Arrays.fill(sidePosition, -1);
        prefillSlots = side(model.prefillPods(), true);
        decodeSlots = side(model.decodePods(), false);
    }

    private int[] side(List<Pod> sidePods, boolean prefill) {
        int[] slots = new int[sidePods.size()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = probe(sidePods.get(i));
            sidePosition[slots[i]] = i;
            onPrefillSide[slots[i]] = prefill;
        }
        return slots;
    }

    /** The snapshot these slots number. */
    public ModelPods model() {
        return model;
    }

    /** How many slots: the snapshot's pod count. */
    public int size() {
        return sidePosition.length;
    }

    /** The pod's slot, or -1 when it is not one of this snapshot's Pod objects. */
    public int slot(Pod pod) {
        List<Pod> list = cursorList;
        if (list != null) {
            int next = cursor;
            if (next < list.size() && list.get(next) == pod) {
                cursor = next + 1;
                return cursorSlots[next];
            }
            if (next > 0 && list.get(next - 1) == pod) {
                return cursorSlots[next - 1]; // the same pod again: scorers read several counters per pod
            }
        }
        int slot = probe(pod);
        if (slot >= 0 && sidePosition[slot] >= 0) {
            boolean prefill = onPrefillSide[slot];
            cursorList = prefill ? model.prefillPods() : model.decodePods();
            cursorSlots = prefill ? prefillSlots : decodeSlots;
            cursor = sidePosition[slot] + 1;
        }
        return slot;
    }

    private int probe(Pod pod) {
        int i = System.identityHashCode(pod) & mask;
        while (keys[i] != null) {
            if (keys[i] == pod) {
                return keySlots[i];
            }
            i = (i + 1) & mask;
        }
        return -1;
    }
}
