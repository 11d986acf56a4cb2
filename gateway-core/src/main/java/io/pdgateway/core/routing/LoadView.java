package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.predict.PrefillState;

/**
 * Everything dynamic the cascade reads about a pod: the gateway's own counters and the last engine scrape.
 * Implementations are read-only views; routing never changes them.
 */
public interface LoadView {
    /** Prefill HTTP calls this gateway has in flight to the pod (upstream's PrefillRequestTracker). */
    int inFlightPrefills(Pod pod);

    /**
     * Requests this gateway routed to the pod (as decode or single target) that have not completed, including those
     * still in their prefill leg: upstream's realtime running count plus its pending-decode count.
     */
    int runningRequests(Pod pod);

    /** Requests routed to the pod as decode target whose prefill leg has not finished yet. */
    int pendingDecodes(Pod pod);

    /**
     * True once this gateway has routed a request to the pod: upstream's "has RealtimeNumRequestsRunning", which
     * drives the decode cold-start score and excludes fresh pods from the request-count spread.
     */
    boolean hasRunningMetric(Pod pod);

    /**
     * {@link #runningRequests} and {@link #hasRunningMetric} in one read, for the stages that read both of every pod:
     * the running count when the pod has the metric, else -1 minus the count ({@link #observedRunning} undoes it).
     */
    default int runningIfObserved(Pod pod) {
        int running = runningRequests(pod);
        return hasRunningMetric(pod) ? running : -1 - running;
    }

    /** The running count a {@link #runningIfObserved} answer carries, whether or not the pod has the metric. */
    static int observedRunning(int runningIfObserved) {
        return runningIfObserved >= 0 ? runningIfObserved : -1 - runningIfObserved;
    }

    /** Completions per second over about a minute, or 0 when there is not enough history yet. */
    double drainRate(Pod pod);

    /** The pod's last engine scrape, or {@link PodMetrics#ABSENT}. */
    PodMetrics metrics(Pod pod);

    /**
     * predicted_ttft: copies the pod's fitted prefill-time model and queue as of now to {@code into[at..]} (layout and
     * predictions: {@link PrefillState}); false, writing nothing, when unknown.
     */
    default boolean prefillState(Pod pod, double[] into, int at) {
        return false;
    }

    /**
     * predicted_ttft: the pod's prefill model's mean relative error over its recent legs (0.05 is 5 %); NaN before its
     * first answered leg or when unknown.
     */
    default double prefillModelError(Pod pod) {
        return Double.NaN;
    }

    /**
     * predicted_ttft: how many requests routed over about the last ten seconds carried the prompt's first {@code
     * blocks} blocks (given by their chained hashes); 0 when unknown.
     */
    default double prefixRequests(long[] blockHashes, int blocks) {
        return 0;
    }

    /** Outlier detection took the pod out of routing for now (it refused connections or failed its scrapes). */
    default boolean ejected(Pod pod) {
        return false;
    }

    /** Whether {@link #ejected} may be true for some pod; false lets a decision skip asking pod by pod. */
    default boolean mayEject() {
        return true;
    }

    /** token_load: prompt tokens the prefill pod is computing now. */
    default long activeTokens(Pod pod) {
        return 0;
    }

    /** token_load: prompt tokens whose KV the prefill pod still holds for a running decode. */
    default long kvTokens(Pod pod) {
        return 0;
    }

    /** token_load decode: prompt tokens of the requests the decode pod holds. */
    default long decodeTokens(Pod pod) {
        return 0;
    }

    /** token_load decode: Σ (now − routed_at) over the decode pod's outstanding requests, in seconds. */
    default double decodeAgeSeconds(Pod pod) {
        return 0;
    }

    LoadView IDLE = new LoadView() {
        @Override
        public int inFlightPrefills(Pod pod) {
            return 0;
        }

        @Override
        public int runningRequests(Pod pod) {
            return 0;
        }

        @Override
        public int pendingDecodes(Pod pod) {
            return 0;
        }

        @Override
        public boolean hasRunningMetric(Pod pod) {
            return false;
        }

        @Override
        public double drainRate(Pod pod) {
            return 0;
        }

        @Override
        public PodMetrics metrics(Pod pod) {
            return PodMetrics.ABSENT;
        }
    };
}
