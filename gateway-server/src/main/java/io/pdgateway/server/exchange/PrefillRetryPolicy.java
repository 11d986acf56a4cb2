package io.pdgateway.server.exchange;

/**
 * When a failed prefill is tried again on other pods, as a named predicate keyed on "has anything reached the client
 * yet?" (design.md §6): only while nothing has (after that the answer belongs to the pods that started it), only
 * for a transient failure ({@link LegFailure#transientFault()}: never a 4xx, a 500 or a timeout), at most
 * {@link #MAX_RETRIES} times per request, and only with PD_GATEWAY_PREFILL_RETRY on. One per request: on the event
 * loop of its exchange.
 */
final class PrefillRetryPolicy {
    /**
     * One retry: a pod that refuses or sheds one request says nothing about its neighbours, but two failures in a row
     * more likely mean a wider outage, where more tries only add load and make the client wait longer.
     */
    static final int MAX_RETRIES = 1;

    private final boolean enabled;
    private int taken;

    PrefillRetryPolicy(boolean enabled) {
        this.enabled = enabled;
    }

    /** Whether this failure may be retried elsewhere. */
    boolean allows(LegFailure failure, boolean anythingReachedClient) {
        return enabled && !anythingReachedClient && failure.transientFault() && taken < MAX_RETRIES;
    }

    /** A retry was sent. */
    void taken() {
        taken++;
    }
}
