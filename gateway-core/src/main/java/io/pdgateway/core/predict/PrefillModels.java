package io.pdgateway.core.predict;

import io.pdgateway.core.model.Pod;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Each prefill pod's {@link PrefillTimeModel} and its queue as the gateway sees it: the predicted compute of the legs
 * it has in flight, drained since the head of the queue started. A pod computes its prefills about first come, first
 * served, so a new leg waits for that remaining work and a finished leg's own compute is the time since the later of
 * its dispatch and the previous leg's answer. Models start from the pod's default coefficients and are dropped with
 * the pod. Thread-safe: every method holds this object's monitor for a few arithmetic operations.
 */
public final class PrefillModels {
    private final Function<Pod, PrefillTimeModel.Coefficients> priors;
    private final Map<String, PodQueue> pods = new HashMap<>();

    /** One pod's model and queue. */
    private static final class PodQueue {
        final PrefillTimeModel model;
        double queuedMillis;
        int inFlight;
        long headStartedNanos;
        long lastAnswerNanos = Long.MIN_VALUE;

        PodQueue(PrefillTimeModel model) {
            this.model = model;
        }

        double waitMillis(long nowNanos) {
            return inFlight == 0 ? 0 : Math.max(0, queuedMillis - (nowNanos - headStartedNanos) / 1e6);
        }
    }

    /** A leg in flight: what it was predicted to cost, and when it was sent. */
    public record Ticket(String podId, double uncached, double cached, double predictedMillis, long dispatchedNanos) {}

    /** @param priors the starting coefficients of a pod (its profile's, else the environment's) */
    public PrefillModels(Function<Pod, PrefillTimeModel.Coefficients> priors) {
        this.priors = priors;
    }

    private PodQueue queue(Pod pod) {
        PodQueue queue = pods.get(pod.id());
        if (queue == null) {
            queue = new PodQueue(new PrefillTimeModel(priors.apply(pod)));
            pods.put(pod.id(), queue);
        }
        return queue;
    }

    /** When a leg sent now would answer: the pod's remaining queued work plus its own compute, in milliseconds. */
    public synchronized double predictMillis(Pod pod, double uncached, double cached, long nowNanos) {
        PodQueue queue = queue(pod);
        return queue.waitMillis(nowNanos) + queue.model.predictMillis(uncached, cached);
    }

    /** A leg was sent to the pod. */
    public synchronized Ticket dispatched(Pod pod, double uncached, double cached, long nowNanos) {
        PodQueue queue = queue(pod);
        double predicted = queue.model.predictMillis(uncached, cached);
        if (queue.inFlight == 0) {
            queue.headStartedNanos = nowNanos;
        }
        queue.inFlight++;
        queue.queuedMillis += predicted;
        return new Ticket(pod.id(), uncached, cached, predicted, nowNanos);
    }

    /** The leg answered: its compute (after the legs ahead of it) trains the model. */
    public synchronized void answered(Ticket ticket, long nowNanos) {
        PodQueue queue = pods.get(ticket.podId());
        if (queue == null) {
            return; // the pod left meanwhile
        }
        long started = Math.max(ticket.dispatchedNanos(), queue.lastAnswerNanos);
        queue.model.observe(ticket.uncached(), ticket.cached(), (nowNanos - started) / 1e6);
        queue.lastAnswerNanos = nowNanos;
        leave(queue, ticket, nowNanos);
    }

    /** The leg ended without an answer (failed or abandoned): it no longer holds the queue. */
    public synchronized void abandoned(Ticket ticket, long nowNanos) {
        PodQueue queue = pods.get(ticket.podId());
        if (queue != null) {
            leave(queue, ticket, nowNanos);
        }
    }

    private static void leave(PodQueue queue, Ticket ticket, long nowNanos) {
        queue.inFlight = Math.max(0, queue.inFlight - 1);
        queue.queuedMillis = queue.inFlight == 0 ? 0 : Math.max(0, queue.queuedMillis - ticket.predictedMillis());
        queue.headStartedNanos = nowNanos; // the next leg in line starts now
    }

    /** The pod's current fit, or null before it was first used. */
    public synchronized PrefillTimeModel.Coefficients coefficients(String podId) {
        PodQueue queue = pods.get(podId);
        return queue == null ? null : queue.model.coefficients();
    }

    /** Each modelled pod's mean relative prediction error (pods not yet observed are absent). */
    public synchronized Map<String, Double> errors() {
        Map<String, Double> errors = new HashMap<>();
        pods.forEach((id, queue) -> {
            if (queue.model.observations() > 0) {
                errors.put(id, queue.model.meanRelativeError());
            }
        });
        return errors;
    }

    /** Legs in flight over every pod (zero when nothing is outstanding). */
    public synchronized int inFlight() {
        int total = 0;
        for (PodQueue queue : pods.values()) {
            total += queue.inFlight;
        }
        return total;
    }

    public synchronized void retainOnly(Set<String> podIds) {
        pods.keySet().retainAll(podIds);
    }
}
