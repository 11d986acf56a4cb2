package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;

/** The gateway-side load counters routing reads. Implemented by the ledger; read-only here. */
public interface LoadView {
    /** Prefill HTTP calls this gateway has in flight to the pod. */
    int inFlightPrefills(Pod pod);

    /** Requests this gateway routed to the pod (as decode or single target) that have not completed. */
    int runningRequests(Pod pod);

    LoadView IDLE = new LoadView() {
        @Override
        public int inFlightPrefills(Pod pod) {
            return 0;
        }

        @Override
        public int runningRequests(Pod pod) {
            return 0;
        }
    };
}
