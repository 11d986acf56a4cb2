package io.pdgateway.core.routing;

/** Why routing ended where it did. Each constant documents what the edge answers the client. */
public enum Verdict {
    /** PD pair chosen by the cascade: run the prefill leg, then the decode leg. */
    PD_PAIR_SELECTED(200),
    /** No complete bucket-matched pair, a standard pod whose range matches serves the whole request. */
    STANDARD_FALLBACK(200),
    /** A non-PD strategy picked one pod. */
    SINGLE_POD_SELECTED(200),
    /** The model has no routable pod at all: 503. */
    NO_ROUTABLE_POD(503),
    /** pd: no complete prefill/decode roleset and no usable standard pod: 503. */
    NO_COMPLETE_PAIR(503),
    /** pd with bucketing: no roleset covers the prompt length and no standard pod's range does either: 503. */
    NO_BUCKET_MATCH(503),
    /** Non-PD strategy: every pod of the model is a prefill or decode pod, none can serve alone: 503. */
    NO_STANDALONE_POD(503),
    /** The model's pods run different engines; routing refuses rather than mix protocols: 503. */
    ENGINE_MISMATCH(503);

    private final int httpStatus;

    Verdict(int httpStatus) {
        this.httpStatus = httpStatus;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public boolean routed() {
        return httpStatus == 200;
    }
}
