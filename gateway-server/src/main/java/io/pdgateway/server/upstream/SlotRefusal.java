package io.pdgateway.server.upstream;

import io.pdgateway.core.model.Pod;

/**
 * Why a request got no connection to one of its pods: the pod's waiting line was full, or the request waited its
 * whole PD_GATEWAY_UPSTREAM_WAIT_TIMEOUT. The client gets 503 with {@code retryAfterSeconds} in Retry-After.
 *
 * @param message for the client's error: the pod, the limit reached and the setting that sets it
 */
public record SlotRefusal(Reason reason, Pod pod, String message, long retryAfterSeconds) {
    /** The reason label of pd_gateway_upstream_rejected_requests_total: a closed set, never client input. */
    public enum Reason {
        /** The pod had every connection in use and PD_GATEWAY_UPSTREAM_MAX_WAITING_PER_POD requests waiting. */
        QUEUE_FULL("queue_full"),
        /** No connection to the pod came free within PD_GATEWAY_UPSTREAM_WAIT_TIMEOUT. */
        WAIT_TIMEOUT("wait_timeout");

        private final String label;

        Reason(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }
}
