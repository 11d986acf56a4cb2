package io.pdgateway.core.spec;

/** Pod labels and annotations, spelled exactly as the spec and upstream spell them: users move their pods over unchanged. */
public final class SpecLabels {
    /** Label (annotation fallback): the model a pod serves. */
    public static final String MODEL_NAME = "model.aibrix.ai/name";
    /** Label: serving port, default {@link #DEFAULT_PORT}. */
    public static final String PORT = "model.aibrix.ai/port";
    /** Label: port of the engine's metrics endpoint; default the serving port (design.md §2). */
    public static final String METRIC_PORT = "model.aibrix.ai/metric-port";
    /** Label: engine (vllm, sglang, trtllm); default {@link #DEFAULT_ENGINE}. */
    public static final String ENGINE = "model.aibrix.ai/engine";
    /** Label on a prefill pod: shfs | nixl | mooncake, read case-insensitively, over AIBRIX_KV_CONNECTOR_TYPE. */
    public static final String KV_CONNECTOR_TYPE = "model.aibrix.ai/kv-connector-type";
    /** Annotation: the JSON config profiles. */
    public static final String CONFIG = "model.aibrix.ai/config";
    /** Annotation (not a label): SGLang bootstrap port, default {@link #DEFAULT_SGLANG_BOOTSTRAP_PORT}. */
    public static final String SGLANG_BOOTSTRAP_PORT = "model.aibrix.ai/sglang-bootstrap-port";
    /** Label: prefill, decode, or another value (a standard pod). */
    public static final String ROLE_NAME = "role-name";
    /** Label: groups a prefill pod and a decode pod into a pair. */
    public static final String ROLESET_NAME = "roleset-name";

    public static final String ROLE_PREFILL = "prefill";
    public static final String ROLE_DECODE = "decode";

    /** Spec, "Step 1 — Label Your Pods": model.aibrix.ai/port defaults to 8000. */
    public static final int DEFAULT_PORT = 8000;
    /** Spec, "Supported Engines": vLLM is the default engine. */
    public static final String DEFAULT_ENGINE = "vllm";
    /** Spec, "Supported Engines": SGLang bootstrap port default. */
    public static final int DEFAULT_SGLANG_BOOTSTRAP_PORT = 8998;

    private SpecLabels() {}
}
