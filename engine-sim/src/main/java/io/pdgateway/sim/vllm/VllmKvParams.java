package io.pdgateway.sim.vllm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.api.JsonCodec;
import java.util.ArrayList;
import java.util.List;

/**
 * vLLM's {@code kv_transfer_params} (NixlConnector shape, upstream-pd-router.md §1.2): what a prefill pod answers
 * and a decode pod reads back, either at the top level (AIBrix's shfs connector) or inside
 * {@code disagg_prefill_resp}, the whole prefill response (AIBrix's nixl connector).
 */
final class VllmKvParams {

    static final String FIELD = "kv_transfer_params";
    static final String NIXL_PREFILL_RESPONSE = "disagg_prefill_resp";

    /** Where the KV of one finished prefill lives. */
    record Remote(String engineId, List<Integer> blockIds, String host, int port) {
    }

    private VllmKvParams() {
    }

    /**
     * The params of a request asking to decode on a remote prefill ({@code do_remote_prefill: true}), taken from
     * the top level first, then from {@code disagg_prefill_resp}; null when the request carries none.
     */
    static JsonNode remotePrefill(JsonNode body) {
        JsonNode top = body.get(FIELD);
        if (isRemotePrefill(top)) {
            return top;
        }
        JsonNode prefillResponse = body.get(NIXL_PREFILL_RESPONSE);
        if (prefillResponse != null && prefillResponse.isObject() && isRemotePrefill(prefillResponse.get(FIELD))) {
            return prefillResponse.get(FIELD);
        }
        return null;
    }

    private static boolean isRemotePrefill(JsonNode params) {
        return params != null && params.isObject() && params.path("do_remote_prefill").asBoolean(false);
    }

    /** Reads the remote KV location; fails with a message naming the missing or malformed field. */
    static Remote parse(JsonNode params) {
        JsonNode engine = params.get("remote_engine_id");
        if (engine == null || !engine.isTextual() || engine.asText().isBlank()) {
            throw new IllegalArgumentException("remote_engine_id missing");
        }
        JsonNode blocks = params.get("remote_block_ids");
        if (blocks == null || !blocks.isArray() || blocks.isEmpty()) {
            throw new IllegalArgumentException("remote_block_ids missing or empty");
        }
        List<Integer> blockIds = new ArrayList<>();
        for (JsonNode id : blocks) {
            if (!id.canConvertToInt() || !id.isIntegralNumber()) {
                throw new IllegalArgumentException("remote_block_ids must hold integers, got " + id);
            }
            blockIds.add(id.asInt());
        }
        JsonNode host = params.get("remote_host");
        if (host == null || !host.isTextual() || host.asText().isBlank()) {
            throw new IllegalArgumentException("remote_host missing");
        }
        JsonNode port = params.get("remote_port");
        if (port == null || !port.canConvertToInt() || port.asInt() < 1 || port.asInt() > 65_535) {
            throw new IllegalArgumentException("remote_port missing or invalid: " + port);
        }
        return new Remote(engine.asText(), List.copyOf(blockIds), host.asText(), port.asInt());
    }

    /** What a prefill pod answers so that a decode pod can fetch the KV: vLLM NixlConnector's request_finished. */
    static ObjectNode forDecode(String engineId, List<Integer> blockIds, String host, int port) {
        ObjectNode params = JsonCodec.object();
        params.put("do_remote_prefill", true);
        params.put("do_remote_decode", false);
        params.put("remote_engine_id", engineId);
        ArrayNode ids = params.putArray("remote_block_ids");
        blockIds.forEach(ids::add);
        params.put("remote_host", host);
        params.put("remote_port", port);
        params.put("tp_size", 1);
        return params;
    }
}
