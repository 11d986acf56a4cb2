package io.pdgateway.engine.vllm;

import java.util.Locale;

/** The vLLM KV-transfer connector a prefill pod uses (spec AIBRIX_KV_CONNECTOR_TYPE, label model.aibrix.ai/kv-connector-type). */
public enum KvConnector {
    /** GPU (SHFS/KVCacheManager): kv_transfer_params round trip with remote_host rewritten to the prefill pod IP. */
    SHFS,
    /** Neuron: the decode gets the whole prefill response as disagg_prefill_resp. */
    NIXL;

    /** The connector named (case-insensitively) by the label, else by the gateway default, else shfs. */
    public static KvConnector resolve(String podLabel, String gatewayDefault) {
        KvConnector fromLabel = parse(podLabel);
        if (fromLabel != null) {
            return fromLabel;
        }
        KvConnector fromDefault = parse(gatewayDefault);
        return fromDefault != null ? fromDefault : SHFS;
    }

    /** The connector with this name, or null. */
    public static KvConnector parse(String name) {
        if (name == null || name.isBlank()) {
            return null;
        }
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "shfs" -> SHFS;
            case "nixl" -> NIXL;
            default -> null;
        };
    }
}
