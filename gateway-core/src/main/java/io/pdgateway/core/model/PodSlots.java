package io.pdgateway.core.model;

import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Each pod of one {@link ModelPods} snapshot numbered by its position in {@link ModelPods#pods()} (its slot), so
 * per-pod state can live in arrays indexed by slot instead of maps keyed by pod id. Finding a pod's slot is by
 * identity (the snapshot's own Pod objects), and cheap in the order routing reads pods: each side list (prefill or
 * decode pods, roleset order) has a cursor after the last pod found in it; the next pod of the side last read (or the
 * same pod again) costs one or two comparisons, and a pod a few places ahead of or behind either cursor is found by
 * comparing references in that side's array. Routing's stages read a side in order or a subset of
 * it in order (the stddev skip's kept pods, a roleset's pods, the picker's chosen pod), so only a pod far from both
 * cursors costs an identity-hash probe, which reads the pod's header: a cache miss per pod at thousands of pods.
 * Immutable apart from the cursors: one thread at a time (the model's lock).
 */
public final class PodSlots {
    /** How far from a cursor a pod is looked for by reference before the identity-hash probe. */
    static final int WINDOW = 16;

    private final ModelPods model;
    private final Pod[] keys;
    private final int[] keySlots;
    private final int mask;
    /** Per slot: which side list it is in (its position there), or -1. */
    private final int[] sidePosition;
    private final boolean[] onPrefillSide;
    private final Pod[] prefillPods;
    private final int[] prefillSlots;
    private final Pod[] decodePods;
    private final int[] decodeSlots;
    /** Per slot: its position in {@link ModelPods#computingPods()}, or -1. */
    private final int[] computingPosition;
    private final ToIntFunction<Pod> computingPositions = this::computingPosition;
    /**
     * The side a pod was last found in (its pods and slots) and the position after that pod; the other side's cursor
     * is kept for when reads switch sides.
     */
    private Pod[] currentPods;
    private int[] currentSlots;
    private int cursor;
    private int otherCursor;

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
        prefillPods = model.prefillPods().toArray(new Pod[0]);
        decodePods = model.decodePods().toArray(new Pod[0]);
        prefillSlots = side(prefillPods, true);
        decodeSlots = side(decodePods, false);
        currentPods = prefillPods;
        currentSlots = prefillSlots;
        computingPosition = new int[pods.size()];
        java.util.Arrays.fill(computingPosition, -1);
        List<Pod> computing = model.computingPods();
        for (int i = 0; i < computing.size(); i++) {
            computingPosition[probe(computing.get(i))] = i;
        }
    }

    private int[] side(Pod[] sidePods, boolean prefill) {
        int[] slots = new int[sidePods.length];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = probe(sidePods[i]);
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

    /** The pod's position in the snapshot's {@link ModelPods#computingPods()}, or -1 (not one, or not its object). */
    public int computingPosition(Pod pod) {
        int slot = slot(pod);
        return slot < 0 ? -1 : computingPosition[slot];
    }

    /** {@link #computingPosition} as a function (one object per snapshot, not one per decision). */
    public ToIntFunction<Pod> computingPositions() {
        return computingPositions;
    }

    /** The pod's slot, or -1 when it is not one of this snapshot's Pod objects. */
    public int slot(Pod pod) {
        Pod[] side = currentPods;
        int next = cursor;
        if (next < side.length && side[next] == pod) {
            cursor = next + 1;
            return currentSlots[next];
        }
        if (next > 0 && side[next - 1] == pod) {
            return currentSlots[next - 1]; // the same pod again: scorers read several counters per pod
        }
        return farSlot(pod);
    }

    /** A pod that is not the next one in the current side: near a cursor of either side, else probed. */
    private int farSlot(Pod pod) {
        int at = near(currentPods, cursor, pod);
        if (at >= 0) {
            cursor = at + 1;
            return currentSlots[at];
        }
        Pod[] other = currentPods == prefillPods ? decodePods : prefillPods;
        at = near(other, otherCursor, pod);
        if (at >= 0) {
            switchSides();
            cursor = at + 1;
            return currentSlots[at];
        }
        int slot = probe(pod);
        if (slot >= 0 && sidePosition[slot] >= 0) {
            if (onPrefillSide[slot] != (currentPods == prefillPods)) {
                switchSides();
            }
            cursor = sidePosition[slot] + 1;
        }
        return slot;
    }

    private void switchSides() {
        boolean toPrefill = currentPods != prefillPods;
        int kept = cursor;
        cursor = otherCursor;
        otherCursor = kept;
        currentPods = toPrefill ? prefillPods : decodePods;
        currentSlots = toPrefill ? prefillSlots : decodeSlots;
    }

    /**
     * The pod's position in the side when it is close to the cursor, else -1: first the pod just found (scorers read
     * several counters per pod), then from the cursor forward (the next pod in order, or a few skipped), then behind.
     */
    private static int near(Pod[] side, int cursor, Pod pod) {
        if (cursor > 0 && side[cursor - 1] == pod) {
            return cursor - 1;
        }
        int end = Math.min(side.length, cursor + WINDOW);
        for (int i = cursor; i < end; i++) {
            if (side[i] == pod) {
                return i;
            }
        }
        int start = Math.max(0, cursor - WINDOW);
        for (int i = cursor - 2; i >= start; i--) {
            if (side[i] == pod) {
                return i;
            }
        }
        return -1;
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
