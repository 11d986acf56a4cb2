package io.pdgateway.core.model;

import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Each pod of one {@link ModelPods} snapshot numbered by its position in {@link ModelPods#pods()} (its slot), so
 * per-pod state can live in arrays indexed by slot instead of maps keyed by pod id. A pod's slot is found by identity
 * (the snapshot's own Pod objects): the snapshot stamped each pod with its position ({@link Pod#slotHint()}), so the
 * usual lookup is one comparison, whatever order the routing stages read pods in. A pod object that a later snapshot
 * stamped with another position (discovery keeps unchanged pods' objects) is found by an identity-hash probe instead;
 * another snapshot's object of an equal pod has no slot.
 *
 * <p>Immutable, so any number of threads may share it.
 */
public final class PodSlots {
    private final ModelPods model;
    private final Pod[] bySlot;
    private final Pod[] keys;
    private final int[] keySlots;
    private final int mask;
    /** Per slot: its position in {@link ModelPods#computingPods()}, or -1. */
    private final int[] computingPosition;
    private final ToIntFunction<Pod> computingPositions = this::computingPosition;
    /** The slot of each of the snapshot's prefill and decode pods, aligned with its side lists (or null). */
    private final int[] prefillSlots;
    private final int[] decodeSlots;

    public PodSlots(ModelPods model) {
        this.model = model;
        List<Pod> pods = model.pods();
        bySlot = pods.toArray(new Pod[0]);
        int capacity = Integer.highestOneBit(Math.max(4, pods.size() * 2 - 1)) << 1;
        keys = new Pod[capacity];
        keySlots = new int[capacity];
        mask = capacity - 1;
        for (int slot = 0; slot < bySlot.length; slot++) {
            Pod pod = bySlot[slot];
            int i = System.identityHashCode(pod) & mask;
            while (keys[i] != null) {
                i = (i + 1) & mask;
            }
            keys[i] = pod;
            keySlots[i] = slot;
        }
        computingPosition = new int[bySlot.length];
        java.util.Arrays.fill(computingPosition, -1);
        List<Pod> computing = model.computingPods();
        for (int i = 0; i < computing.size(); i++) {
            computingPosition[slot(computing.get(i))] = i;
        }
        prefillSlots = slotsOrNull(model.prefillPods());
        decodeSlots = slotsOrNull(model.decodePods());
    }

    /** Each pod's slot, or null when one is not one of the snapshot's pods (then that side is read pod by pod). */
    private int[] slotsOrNull(List<Pod> pods) {
        int[] slots = new int[pods.size()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = slot(pods.get(i));
            if (slots[i] < 0) {
                return null;
            }
        }
        return slots;
    }

    /**
     * The slot of each pod of {@code pods} when it is one of the snapshot's own side lists ({@link
     * ModelPods#prefillPods()}, {@link ModelPods#decodePods()}: what a decision's stages read unless a stage narrowed
     * the side), else null. Read only.
     */
    public int[] slotsOf(List<Pod> pods) {
        return pods == model.decodePods() ? decodeSlots : pods == model.prefillPods() ? prefillSlots : null;
    }

    /** The snapshot these slots number. */
    public ModelPods model() {
        return model;
    }

    /** How many slots: the snapshot's pod count. */
    public int size() {
        return bySlot.length;
    }

    /** The pod's position in the snapshot's {@link ModelPods#computingPods()}, or -1 (not one, or not its object). */
    public int computingPosition(Pod pod) {
        int slot = slot(pod);
        return slot < 0 ? -1 : computingPosition[slot];
    }

    /** The snapshot's pod at {@code slot}. */
    public Pod pod(int slot) {
        return bySlot[slot];
    }

    /** {@link #computingPosition} of the pod at {@code slot}. */
    public int computingPositionAt(int slot) {
        return computingPosition[slot];
    }

    /** {@link #computingPosition} as a function (one object per snapshot, not one per decision). */
    public ToIntFunction<Pod> computingPositions() {
        return computingPositions;
    }

    /** The pod's slot, or -1 when it is not one of this snapshot's Pod objects. */
    public int slot(Pod pod) {
        int hint = pod.slotHint();
        if (hint >= 0 && hint < bySlot.length && bySlot[hint] == pod) {
            return hint;
        }
        return probe(pod);
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
