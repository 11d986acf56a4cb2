package io.pdgateway.core.predict;

import io.pdgateway.core.model.ChangedSlots;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodSlots;
import java.lang.invoke.VarHandle;
import java.util.function.IntConsumer;

/**
 * One model's prefill-time queues ({@link PrefillModels}) by the pods' slots in its snapshot, the way {@code
 * LedgerRows} holds the ledgers' entries: the very queue objects the models keep, refilled when the snapshot or the
 * models' set of queues changed, and each queue's state copied into arrays of numbers, recopied at the next decision
 * after the queue changed ({@link ChangedSlots}). A decision then reads every prefill pod's state from those arrays in
 * order instead of from queues scattered over the heap (a cache miss a pod: predicted_ttft at 4,096 pods spent a sixth
 * of a decision there). What depends on the time is computed at the read: the head's progress from its start, and a
 * queue whose model is due to fade is faded by the read and copied again under its monitor. A pod
 * without a queue yet is read through the models (which make its queue, so the next decision refills).
 *
 * <p>Not thread-safe: one per model, used under the model's lock.
 */
public final class PrefillRows {
    private PodSlots slots;
    private PrefillModels models;
    private long version;
    private PrefillModels.PodQueue[] queues;
    private ChangedSlots changed;
    // Each slot's queue as last copied: PrefillState's layout (its head progress unused), the head's start, and after
    // when a read must fade the model.
    private double[] states;
    private long[] headStarted;
    private long[] fadeDueAfter;
    private final IntConsumer copy = this::copy;

    /** Brings the rows up to date for a decision over the pods of {@code modelSlots}; returns this. */
    public PrefillRows refresh(PodSlots modelSlots, PrefillModels prefillModels) {
        // Read the version before the entries: a queue added meanwhile leaves a newer version for the next decision.
        long current = prefillModels.version();
        if (modelSlots != slots || prefillModels != models || current != version) {
            slots = modelSlots;
            models = prefillModels;
            version = current;
            ModelPods model = modelSlots.model();
            int n = modelSlots.size();
            if (queues == null || queues.length != n) {
                queues = new PrefillModels.PodQueue[n];
                states = new double[n * PrefillState.WIDTH];
                headStarted = new long[n];
                fadeDueAfter = new long[n];
                changed = new ChangedSlots(n);
            }
            // A queue this refill moves or drops may still mark its old slot: that only copies the slot again.
            for (int s = 0; s < n; s++) {
                queues[s] = changed.watch(prefillModels.entry(model.pods().get(s)), s);
                copy(s);
            }
        } else {
            changed.drain(copy);
        }
        return this;
    }

    /** Copies the slot's queue without its monitor unless a write overlaps (its seqlock, as the models' reads). */
    private void copy(int slot) {
        PrefillModels.PodQueue queue = queues[slot];
        if (queue == null) {
            return;
        }
        int before = queue.writeCount();
        if ((before & 1) == 0) {
            copyFields(queue, slot);
            VarHandle.loadLoadFence(); // the copy's loads stay before the second read of the count
            if (queue.writeCount() == before) {
                return;
            }
        }
        synchronized (queue) {
            copyFields(queue, slot);
        }
    }

    private void copyFields(PrefillModels.PodQueue queue, int slot) {
        PrefillModels.copyFit(queue, states, slot * PrefillState.WIDTH);
        headStarted[slot] = queue.headStartedNanos;
        fadeDueAfter[slot] = queue.fadeDueAfterNanos();
    }

    /**
     * A read of a queue due to fade: fades it and copies it, to the decision's state and to these rows, under its
     * monitor. The rows' copy is then exact, so the fade does not mark the slot (unless the queue reports to other
     * rows): a wave of idle pods fading at once, every prefill pod of a quiet model, would otherwise have the next
     * decision copy each of them again from its queue.
     */
    private void fadeAndCopy(PrefillModels.PodQueue queue, int slot, long nowNanos, double[] into, int at) {
        synchronized (queue) {
            if (queue.fadeDue(nowNanos)) {
                queue.writing();
                queue.fadedTo(nowNanos);
                if (queue.reportsTo(changed.mark(slot))) {
                    queue.writtenAndCopied();
                } else {
                    queue.written();
                }
            }
            copyFields(queue, slot);
            PrefillModels.copyFields(queue, nowNanos, into, at);
        }
    }

    /** {@link PrefillModels#copyState} of the pod at {@code slot}. */
    public void copyState(int slot, Pod pod, long nowNanos, double[] into, int at) {
        PrefillModels.PodQueue queue = queues[slot];
        if (queue == null) {
            models.copyState(pod, nowNanos, into, at);
        } else if (nowNanos > fadeDueAfter[slot]) {
            fadeAndCopy(queue, slot, nowNanos, into, at);
        } else {
            int from = slot * PrefillState.WIDTH;
            System.arraycopy(states, from, into, at, PrefillState.HEAD_PROGRESS);
            into[at + PrefillState.HEAD_PROGRESS] = states[from + PrefillState.LEGS] == 0 ? 0
                    : (nowNanos - headStarted[slot]) / 1e6;
        }
    }

    /** {@link PrefillModels#error} of the pod at {@code slot}. */
    public double error(int slot, Pod pod) {
        PrefillModels.PodQueue queue = queues[slot];
        return queue != null ? PrefillModels.error(queue) : models.error(pod.id());
    }
}
