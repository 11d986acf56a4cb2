package io.pdgateway.core.routing;

/**
 * Why routing ended where it did. Each constant documents what the edge answers the client. A refusal that pods
 * coming up, turning ready or leaving ejection can lift answers Retry-After: 1 (every request reads the pods' state
 * afresh and a refusal costs no pod any time, so an early retry is cheap and served as soon as a pod can take it); one
 * that only a change of the deployment lifts (pod roles, engines) gets none, as retrying it soon cannot help.
 */
public enum Verdict {
    /** PD pair chosen by the cascade: run the prefill leg, then the decode leg. */
    PD_PAIR_SELECTED(200, 0),
    /** No complete bucket-matched pair, a standard pod whose range matches serves the whole request. */
    STANDARD_FALLBACK(200, 0),
    /** A non-PD strategy picked one pod. */
    SINGLE_POD_SELECTED(200, 0),
    /** The model has no routable pod at all (none ready, all ejected): 503, Retry-After. */
    NO_ROUTABLE_POD(503, 1),
    /** pd: no complete prefill/decode roleset and no usable standard pod: 503, Retry-After. */
    NO_COMPLETE_PAIR(503, 1),
    /** pd, bucketing: no roleset covers the prompt length and no standard pod's range does either: 503, Retry-After. */
    NO_BUCKET_MATCH(503, 1),
    /** Non-PD strategy: every pod of the model is a prefill or decode pod, none can serve alone: 503. */
    NO_STANDALONE_POD(503, 0),
    /** The model's pods run different engines; routing refuses rather than mix protocols: 503. */
    ENGINE_MISMATCH(503, 0);

    private final int httpStatus;
    private final int retryAfterSeconds;

    Verdict(int httpStatus, int retryAfterSeconds) {
        this.httpStatus = httpStatus;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public int httpStatus() {
        return httpStatus;
    }

    /** The refusal's Retry-After in seconds; 0 for none (routed, or a refusal retrying soon cannot lift). */
    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }

    public boolean routed() {
        return httpStatus == 200;
    }
}
