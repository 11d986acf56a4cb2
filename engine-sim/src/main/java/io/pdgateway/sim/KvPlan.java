package io.pdgateway.sim;

/**
 * How a request joins the engine once its P/D fields are read.
 *
 * @param needsPrefill true: compute the prompt here (combined, prefill, or a decode pod given no KV);
 *                     false: the KV arrived from a prefill pod and the request goes straight to decoding
 */
record KvPlan(boolean needsPrefill) {

    static final KvPlan LOCAL_PREFILL = new KvPlan(true);
    static final KvPlan REMOTE_KV = new KvPlan(false);
}
