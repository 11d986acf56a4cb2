package io.pdgateway.core.config;

/**
 * How many legs the gateway runs on one pod at once and how requests wait beyond that (PD_GATEWAY_UPSTREAM_MAX_*,
 * PD_GATEWAY_UPSTREAM_WAIT_TIMEOUT). Each leg to a pod holds one HTTP/1.1 connection, so this is the pod's connection
 * limit; a PD request needs one on its decode pod and one on its prefill pod.
 *
 * @param maxConnections legs in flight per pod at most
 * @param maxWaiting requests that may wait for one of a pod's connections; 0: refused at once at the limit
 * @param waitTimeoutMillis how long one may wait (for all of its pods together)
 */
public record PodConnectionLimits(int maxConnections, int maxWaiting, long waitTimeoutMillis) {
    public PodConnectionLimits {
        if (maxConnections < 1 || maxWaiting < 0 || waitTimeoutMillis < 1) {
            throw new IllegalArgumentException("connections >= 1, waiting >= 0 and a wait of at least 1 ms, got "
                    + maxConnections + ", " + maxWaiting + ", " + waitTimeoutMillis + " ms");
        }
    }

    static PodConnectionLimits read(KnobSource env) {
        return new PodConnectionLimits((int) Math.ceil(env.get(Knobs.UPSTREAM_MAX_CONNECTIONS_PER_POD)),
                (int) Math.ceil(env.get(Knobs.UPSTREAM_MAX_WAITING_PER_POD)),
                Math.max(1, Math.round(env.get(Knobs.UPSTREAM_WAIT_TIMEOUT) * 1000)));
    }

    /**
     * The Retry-After a refused request gets, in whole seconds: the wait timeout, rounded up. Every request in a full
     * queue has left it by then (served or refused), and a pod that freed nothing within one wait is unlikely to
     * within a shorter one.
     */
    public long retryAfterSeconds() {
        return Math.max(1, (waitTimeoutMillis + 999) / 1000);
    }
}
