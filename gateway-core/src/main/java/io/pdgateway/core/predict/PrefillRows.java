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
    /** Per slot, the pod's fit as of the decision numbered in {@link #fitDecision} (3 coefficients a slot). */
    private double[] fits;
    private long[] fitDecision;
    /** Numbers the decisions: each {@link #refresh} starts one, so fits copied for an earlier one are not read. */
    private long decision;

    /**
     * Brings the rows up to date for a decision over the pods of {@code modelSlots}, and starts that decision (call once
     * per decision, before its reads); returns this.
     */
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
            if (fits == null || fitDecision.length != queues.length) {
                fits = new double[3 * queues.length];
                fitDecision = new long[queues.length];
            }
            java.util.Arrays.fill(fitDecision, -1); // the queues may be other objects now
        }
        decision++;
        return this;
    }

    /** {@link PrefillModels#predictMillis} of the pod at {@code slot}. */
    public double predictMillis(int slot, Pod pod, double uncached, double cached, long nowNanos) {
        PrefillModels.PodQueue queue = queues[slot];
        return queue != null ? PrefillModels.predictMillis(queue, uncached, cached, nowNanos)
                : models.predictMillis(pod, uncached, cached, nowNanos);
    }

    /**
     * {@link PrefillModels#computeMillis} of the pod at {@code slot}. predicted_ttft asks it for every level of held
     * prefix of every candidate, so the pod's fit is copied out of its queue (faded to now, under the queue's lock) once
     * per decision and each answer is arithmetic on the copy.
     */
    public double computeMillis(int slot, Pod pod, double uncached, double cached, long nowNanos) {
        PrefillModels.PodQueue queue = queues[slot];
        if (queue == null) {
            return models.computeMillis(pod, uncached, cached, nowNanos);
        }
        if (fitDecision[slot] != decision) {
            PrefillModels.copyFit(queue, nowNanos, fits, 3 * slot);
            fitDecision[slot] = decision;
        }
        return PrefillTimeModel.predictMillis(fits, 3 * slot, uncached, cached);
    }

    /** {@link PrefillModels#error} of the pod at {@code slot}. */
    public double error(int slot, Pod pod) {
        PrefillModels.PodQueue queue = queues[slot];
        return queue != null ? PrefillModels.error(queue) : models.error(pod.id());
    }
}
