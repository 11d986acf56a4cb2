package io.pdgateway.core.predict;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodSlots;

/**
 * One model's prefill-time queues ({@link PrefillModels}) in an array indexed by the pods' slots in its snapshot, the
 * way {@code LedgerRows} holds the ledgers' entries: the very queue objects the models keep, so a read by slot is the
 * same as a read by pod id without the map lookup. Refilled when the snapshot or the models' set of queues changed; a
 * pod without a queue yet is read through the models (which make its queue, so the next decision refills).
 *
 * <p>Not thread-safe: one per model, used under the model's lock.
 */
public final class PrefillRows {
    private PodSlots slots;
    private PrefillModels models;
    private long version;
    private PrefillModels.PodQueue[] queues;

    /** Brings the rows up to date for a decision over the pods of {@code modelSlots}; returns this. */
    public PrefillRows refresh(PodSlots modelSlots, PrefillModels prefillModels) {
        // Read the version before the entries: a queue added meanwhile leaves a newer version for the next decision.
        long current = prefillModels.version();
        if (modelSlots != slots || prefillModels != models || current != version) {
            slots = modelSlots;
            models = prefillModels;
            version = current;
            ModelPods model = modelSlots.model();
            if (queues == null || queues.length != modelSlots.size()) {
                queues = new PrefillModels.PodQueue[modelSlots.size()];
            }
            for (int s = 0; s < queues.length; s++) {
                queues[s] = prefillModels.entry(model.pods().get(s));
            }
        }
        return this;
    }

    /** {@link PrefillModels#copyState} of the pod at {@code slot}. */
    public void copyState(int slot, Pod pod, long nowNanos, double[] into, int at) {
        PrefillModels.PodQueue queue = queues[slot];
        if (queue != null) {
            PrefillModels.copyState(queue, nowNanos, into, at);
        } else {
            models.copyState(pod, nowNanos, into, at);
        }
    }

    /** {@link PrefillModels#error} of the pod at {@code slot}. */
    public double error(int slot, Pod pod) {
        PrefillModels.PodQueue queue = queues[slot];
        return queue != null ? PrefillModels.error(queue) : models.error(pod.id());
    }
}
