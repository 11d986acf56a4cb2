package io.pdgateway.engine.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.JsonBodies;

/**
 * What a TensorRT-LLM context worker's {@code /server_info} says about itself, which a generation_first request
 * needs before either leg is sent (spec, "TensorRT-LLM Parallel Scheduling"): the endpoint the generation worker
 * reaches the context worker's KV at, its attention-DP rank, and an optional opaque state.
 *
 * @param encodedOpaqueState null when the worker reports none
 */
public record TrtServerInfo(String ctxInfoEndpoint, int ctxDpRank, String encodedOpaqueState) {
    static final String DISAGGREGATED_PARAMS = "disaggregated_params";

    /**
     * Reads {@code {"disaggregated_params": {"ctx_info_endpoint": "tcp://...", "ctx_dp_rank": 0, ...}}}. The endpoint
     * may also come as a one-element list (the engine's own dataclass declares a list); a longer list cannot name the
     * selected rank's endpoint and is refused.
     */
    public static TrtServerInfo parse(byte[] body) throws EngineProtocolException {
        ObjectNode root = JsonBodies.parseObject(body);
        JsonNode params = root.get(DISAGGREGATED_PARAMS);
        JsonNode rank = params == null ? null : params.get("ctx_dp_rank");
        if (params == null || !params.isObject() || rank == null || rank.isNull()) {
            // The C++ KV-cache transceiver answers an empty disaggregated_params: name the likely cause.
            throw new EngineProtocolException("/server_info has no disaggregated_params.ctx_dp_rank; generation_first "
                    + "needs TensorRT-LLM's Python KV-cache transceiver on both roles "
                    + "(cache_transceiver_config.transceiver_runtime: PYTHON)");
        }
        if (!rank.isIntegralNumber() || !rank.canConvertToInt() || rank.asInt() < 0) {
            throw new EngineProtocolException("/server_info disaggregated_params.ctx_dp_rank must be an integer >= 0, got "
                    + rank);
        }
        String endpoint = endpoint(params.get("ctx_info_endpoint"));
        JsonNode opaque = params.get("encoded_opaque_state");
        String opaqueState = opaque != null && opaque.isTextual() && !opaque.asText().isEmpty() ? opaque.asText() : null;
        return new TrtServerInfo(endpoint, rank.asInt(), opaqueState);
    }

    private static String endpoint(JsonNode node) throws EngineProtocolException {
        JsonNode value = node;
        if (node != null && node.isArray()) {
            if (node.size() > 1) {
                throw new EngineProtocolException("/server_info lists " + node.size() + " ctx_info_endpoint values; "
                        + "generation_first needs the one endpoint of the selected rank");
            }
            value = node.isEmpty() ? null : node.get(0);
        }
        if (value == null || !value.isTextual() || value.asText().isBlank()) {
            throw new EngineProtocolException("/server_info has no disaggregated_params.ctx_info_endpoint");
        }
        return value.asText();
    }
}
