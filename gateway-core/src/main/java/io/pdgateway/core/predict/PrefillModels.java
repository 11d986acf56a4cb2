package io.pdgateway.core.predict;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.RowEntry;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Each prefill pod's {@link PrefillTimeModel} and its queue as the gateway sees it: the summed work terms of the legs it
 * has in flight. A pod works through its prefills about first come, first served (batching them into steps does not
 * change the order much), so a leg sent now answers after the work still ahead of it plus its own: the work of every
 * leg in flight, less what the pod has done since the head of the queue started. Each answered leg teaches the model
 * that its latency, plus the head's progress when it was sent, was that summed work. Models start from the pod's
 * default coefficients and are dropped with the pod.
 *
 * <p>The gateway learns only from the pods it chooses, so a pod whose model looks slow would never be chosen again to
 * correct it, even when its slowness was a one-off (the first request after a start, a hiccup). Once a pod has
 * answered no leg for its fade period, its model therefore fades towards the default, halving what it learned every
 * further period: an idle pod is tried again within a few periods, a pod in use never fades. Thread-safe: each pod's
 * queue is its own monitor, held for a few arithmetic operations, so decisions for different models (whose pods differ)
 * never wait on each other here; a decision copies each queue without it unless a write overlaps (see
 * {@link PodQueue#writes}).
 */
public final class PrefillModels {
    /** Reads fade an idle pod's model in steps of this share of its fade period ({@code PodQueue.fadeDue}). */
    static final double FADE_STEP = 1.0 / 32;
    private final Function<Pod, PrefillTimeModel.Coefficients> priors;
    private final ToDoubleFunction<Pod> fadeMillis;
    private final Map<String, PodQueue> pods = new ConcurrentHashMap<>();
    /** Changes after every queue added to or removed from {@link #pods}: {@link PrefillRows} refills when it does. */
    private final AtomicLong version = new AtomicLong();

    /** One pod's model and the summed work terms of its legs in flight. */
    static final class PodQueue extends RowEntry {
        final PrefillTimeModel model;
        final double fadeNanos;
        /**
         * The model's fit (its three terms, {@link PrefillTimeModel#fitTerm}), kept here after every change of
         * the model: a decision copies every prefill pod's state, and reading the fit here instead of through the model
         * and its coefficient array spares two dependent reads of other objects a pod (thousands a decision).
         */
        double fixedTerm;
        double tokenTerm;
        double attentionTerm;
        int legs;
        double tokens;
        double attention;
        long headStartedNanos;
        /** Fading starts a fade period after the last answer; it has been applied up to here. */
        long fadedThroughNanos;
        long lastAnsweredNanos;
        boolean answeredOnce;
        /**
         * Odd while a write is under way, counting writes (a seqlock): writers hold the monitor and bracket every
         * change with {@link #writing} and {@link #written}, and a decision copies the fields without the monitor and
         * keeps the copy if this was even and unchanged around it. Taking the monitor of every prefill pod cost a
         * decision two atomic operations a pod, each a full fence (predicted_ttft at 4,096 pods: 6 % of its time), and
         * held up a leg's answer on an event loop while a decision read its pod.
         */
        private volatile int writes;

        PodQueue(PrefillTimeModel model, double fadeNanos) {
            this.model = model;
            this.fadeNanos = fadeNanos;
            fitChanged();
        }

        /** Takes the model's fit after the model changed. */
        void fitChanged() {
            fixedTerm = model.fitTerm(0);
            tokenTerm = model.fitTerm(1);
            attentionTerm = model.fitTerm(2);
        }

        /** Under the monitor, before a change: readers without it now retry under it. */
        void writing() {
            writes = writes + 1;
            VarHandle.storeStoreFence(); // the change's stores stay after the odd count
        }

        /**
         * Under the monitor, after the change (a volatile store: the change's stores come before it); then tells the
         * rows that copy this queue ({@link PrefillRows}) to copy it again.
         */
        void written() {
            writes = writes + 1;
            changed();
        }

        /** The write count, for a reader's seqlock check (see {@link #writes}). */
        int writeCount() {
            return writes;
        }

        /** {@link #written} for a write whose rows copy the queue under the same monitor, so need no mark. */
        void writtenAndCopied() {
            writes = writes + 1;
        }

        /**
         * Whether a read at {@code nowNanos} fades the model (under the monitor or validated): a fade period after the
         * last answer, then {@link #FADE_STEP} of a period after the last fade. Faded at every read, every pod idle
         * past its period cost each decision its monitor, two fences, a pow and the model's update (predicted_ttft at
         * 512 pods, every prefill pod idle: 19-21 µs a decision instead of 12.5-13). Fades compose, so a step applies
         * exactly the fading since the last one; between steps a read lags the exact fade by under a thirty-second of a
         * half-life (about 2 % of what is left to fade).
         */
        boolean fadeDue(long nowNanos) {
            return nowNanos > fadeDueAfterNanos();
        }

        /** After when a read fades the model ({@link #fadeDue}); {@link Long#MAX_VALUE} before its first answer. */
        long fadeDueAfterNanos() {
            return answeredOnce ? Math.max(fadedThroughNanos + (long) (fadeNanos * FADE_STEP),
                    lastAnsweredNanos + (long) fadeNanos) : Long.MAX_VALUE;
        }

        /** From when fading is pending: a fade period after the last answer, and not again for time already faded. */
        private long fadeFromNanos() {
            return Math.max(fadedThroughNanos, lastAnsweredNanos + (long) fadeNanos);
        }

        /** Applies all the fading pending at {@code nowNanos}; under the monitor, inside a write. */
        PodQueue fadedTo(long nowNanos) {
            if (answeredOnce && nowNanos > fadeFromNanos()) {
                model.fade(Math.pow(0.5, (nowNanos - fadeFromNanos()) / fadeNanos));
                fadedThroughNanos = nowNanos;
                fitChanged();
            }
            return this;
        }

        /** The fading pending, when a read is due to apply it ({@link #fadeDue}), as a write; under the monitor. */
        PodQueue fadeNow(long nowNanos) {
            if (fadeDue(nowNanos)) {
                writing();
                fadedTo(nowNanos);
                written();
            }
            return this;
        }

        double headProgressMillis(long nowNanos) {
            return legs == 0 ? 0 : (nowNanos - headStartedNanos) / 1e6;
        }
    }

    /** A leg in flight: its own work terms, the queue's with it when sent, the head's progress then, and the time. */
    public record Ticket(String podId, double uncached, double attention, int queuedLegs, double queuedTokens,
            double queuedAttention, double headProgressMillis, long dispatchedNanos) {}

    /**
     * @param priors the starting coefficients of a pod (its profile's, else the environment's)
     * @param fadeMillis how long a pod answers nothing before its model starts to fade, and its half-life after that
     */
    public PrefillModels(Function<Pod, PrefillTimeModel.Coefficients> priors, ToDoubleFunction<Pod> fadeMillis) {
        this.priors = priors;
        this.fadeMillis = fadeMillis;
    }

    private PodQueue queue(Pod pod) {
        PodQueue queue = pods.get(pod.id());
        return queue != null ? queue : pods.computeIfAbsent(pod.id(), id -> {
            version.incrementAndGet();
            return new PodQueue(new PrefillTimeModel(priors.apply(pod)), fadeMillis.applyAsDouble(pod) * 1e6);
        });
    }

    long version() {
        return version.get();
    }

    /** The pod's queue as the methods below find it (by id), or null before its first use. */
    PodQueue entry(Pod pod) {
        return pods.get(pod.id());
    }

    /** When a leg sent now would answer: the pod's remaining queued work plus its own compute, in milliseconds. */
    public double predictMillis(Pod pod, double uncached, double cached, long nowNanos) {
        PodQueue queue = queue(pod);
        synchronized (queue) {
            queue.fadeNow(nowNanos);
            double work = queue.model.predictWork(queue.legs + 1, queue.tokens + uncached,
                    queue.attention + PrefillTimeModel.attention(uncached, cached));
            return Math.max(queue.model.predictMillis(uncached, cached), work - queue.headProgressMillis(nowNanos));
        }
    }

    /** The pod's own compute of such a prefill, without its queue, in milliseconds. */
    public double computeMillis(Pod pod, double uncached, double cached, long nowNanos) {
        PodQueue queue = queue(pod);
        synchronized (queue) {
            return queue.fadeNow(nowNanos).model.predictMillis(uncached, cached);
        }
    }

    /** Copies the pod's fit, faded to {@code nowNanos}, and its queue to {@code into[at..]} (see {@link PrefillState}). */
    public void copyState(Pod pod, long nowNanos, double[] into, int at) {
        copyState(queue(pod), nowNanos, into, at);
    }

    static void copyState(PodQueue queue, long nowNanos, double[] into, int at) {
        int before = queue.writes;
        if ((before & 1) == 0 && !queue.fadeDue(nowNanos)) {
            copyFields(queue, nowNanos, into, at);
            VarHandle.loadLoadFence(); // the copy's loads stay before the second read of the count
            if (queue.writes == before) {
                return;
            }
        }
        synchronized (queue) {
            queue.fadeNow(nowNanos);
            copyFields(queue, nowNanos, into, at);
        }
    }

    static void copyFields(PodQueue queue, long nowNanos, double[] into, int at) {
        copyFit(queue, into, at);
        into[at + PrefillState.HEAD_PROGRESS] = queue.headProgressMillis(nowNanos);
    }

    /** PrefillState's layout but the head's progress (which depends on the time): the fit and the queue's sums. */
    static void copyFit(PodQueue queue, double[] into, int at) {
        into[at] = queue.fixedTerm; // from the queue's copy of the fit
        into[at + 1] = queue.tokenTerm;
        into[at + 2] = queue.attentionTerm;
        into[at + PrefillState.LEGS] = queue.legs;
        into[at + PrefillState.TOKENS] = queue.tokens;
        into[at + PrefillState.ATTENTION] = queue.attention;
    }

    /** A leg was sent to the pod. */
    public Ticket dispatched(Pod pod, double uncached, double cached, long nowNanos) {
        PodQueue queue = queue(pod);
        synchronized (queue) {
            queue.writing();
            try {
                return dispatched(queue, pod, uncached, cached, nowNanos);
            } finally {
                queue.written();
            }
        }
    }

    private static Ticket dispatched(PodQueue queue, Pod pod, double uncached, double cached, long nowNanos) {
        double attention = PrefillTimeModel.attention(uncached, cached);
        if (queue.legs == 0) {
            queue.headStartedNanos = nowNanos;
        }
        Ticket ticket = new Ticket(pod.id(), uncached, attention, queue.legs + 1, queue.tokens + uncached,
                queue.attention + attention, queue.headProgressMillis(nowNanos), nowNanos);
        queue.legs++;
        queue.tokens += uncached;
        queue.attention += attention;
        return ticket;
    }

    /** The leg answered: the work found in flight when it was sent, with its own, took its latency plus the head's progress. */
    public void answered(Ticket ticket, long nowNanos) {
        PodQueue queue = pods.get(ticket.podId());
        if (queue == null) {
            return; // the pod left meanwhile
        }
        synchronized (queue) {
            queue.writing();
            try {
                answered(queue, ticket, nowNanos);
            } finally {
                queue.written();
            }
        }
    }

    private static void answered(PodQueue queue, Ticket ticket, long nowNanos) {
        queue.fadedTo(nowNanos).model.observeWork(ticket.queuedLegs(), ticket.queuedTokens(),
                ticket.queuedAttention(), (nowNanos - ticket.dispatchedNanos()) / 1e6 + ticket.headProgressMillis());
        queue.fitChanged();
        queue.answeredOnce = true;
        queue.lastAnsweredNanos = nowNanos;
        queue.fadedThroughNanos = nowNanos;
        leave(queue, ticket, nowNanos);
    }

    /** The leg ended without an answer (failed or abandoned): it no longer holds the queue. */
    public void abandoned(Ticket ticket, long nowNanos) {
        PodQueue queue = pods.get(ticket.podId());
        if (queue != null) {
            synchronized (queue) {
                queue.writing();
                leave(queue, ticket, nowNanos);
                queue.written();
            }
        }
    }

    private static void leave(PodQueue queue, Ticket ticket, long nowNanos) {
        queue.legs = Math.max(0, queue.legs - 1);
        if (queue.legs == 0) {
            queue.tokens = 0;
            queue.attention = 0;
        } else {
            queue.tokens = Math.max(0, queue.tokens - ticket.uncached());
            queue.attention = Math.max(0, queue.attention - ticket.attention());
        }
        queue.headStartedNanos = nowNanos; // the next leg in line starts now
    }

    /** The pod's current fit, or null before it was first used. */
    public PrefillTimeModel.Coefficients coefficients(String podId) {
        PodQueue queue = pods.get(podId);
        if (queue == null) {
            return null;
        }
        synchronized (queue) {
            return queue.model.coefficients();
        }
    }

    /** The pod's mean relative prediction error over its recent legs; NaN before its first answered leg. */
    public double error(String podId) {
        return error(pods.get(podId));
    }

    static double error(PodQueue queue) {
        if (queue == null) {
            return Double.NaN;
        }
        synchronized (queue) {
            return queue.model.meanRelativeError();
        }
    }

    /** The pods modelled now (those sent a leg since they joined). */
    public Set<String> podIds() {
        return Set.copyOf(pods.keySet());
    }

    /** Legs in flight over every pod (zero when nothing is outstanding). */
    public int inFlight() {
        int total = 0;
        for (PodQueue queue : pods.values()) {
            synchronized (queue) {
                total += queue.legs;
            }
        }
        return total;
    }

    public void retainOnly(Set<String> podIds) {
        if (pods.keySet().retainAll(podIds)) {
            version.incrementAndGet();
        }
    }
}
