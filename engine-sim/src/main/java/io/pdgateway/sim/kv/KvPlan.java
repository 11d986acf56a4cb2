package io.pdgateway.sim.kv;

/**
 * How a request joins the engine once its P/D fields are read.
 *
 * @param needsPrefill true: compute the prompt here (combined, prefill, or a decode pod given no KV);
 *                     false: the KV arrived from a prefill pod and the request goes straight to decoding
 */
public record KvPlan(boolean needsPrefill) {

    public static final KvPlan LOCAL_PREFILL = new KvPlan(true);
    public static final KvPlan REMOTE_KV = new KvPlan(false);
}
