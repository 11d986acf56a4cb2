package io.pdgateway.sim.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import io.pdgateway.sim.api.ApiException;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * A request's {@code disaggregated_params} as a TensorRT-LLM worker reads them, validated the way a wrong gateway
 * would be caught: a local (small) id, a missing or malformed endpoint, generation_first ids that disagree.
 *
 * @param ctxRequestId    generation_only: the context request the KV belongs to; null for context_only
 * @param ctxInfoEndpoint generation_only: {@code tcp://host:port} of the context worker's KV
 * @param generationFirst {@code schedule_style} 1
 */
record TrtDisaggParams(String requestType, long disaggRequestId, Long ctxRequestId, String ctxInfoEndpoint,
        boolean generationFirst) {

    static final String CONTEXT_ONLY = "context_only";
    static final String GENERATION_ONLY = "generation_only";

    /** The params, or null when the request carries none; a 400 for params a worker would refuse. */
    static TrtDisaggParams read(JsonNode params) throws ApiException {
        if (params == null || params.isNull()) {
            return null;
        }
        if (!params.isObject()) {
            throw ApiException.badRequest("disaggregated_params must be an object");
        }
        String type = params.path("request_type").asText("");
        if (!CONTEXT_ONLY.equals(type) && !GENERATION_ONLY.equals(type)) {
            throw ApiException.badRequest("disaggregated_params.request_type must be context_only or generation_only, "
                    + "got " + params.get("request_type"));
        }
        long id = longField(params, "disagg_request_id");
        if (id < TrtllmPersonality.MIN_GLOBAL_ID) {
            throw ApiException.badRequest("disaggregated_params.disagg_request_id " + id + " is a local id; "
                    + "a disaggregated request needs a global one (>= 2^42)");
        }
        JsonNode style = params.get("schedule_style");
        if (style != null && !style.isNull() && !(style.isIntegralNumber() && (style.asInt() == 0 || style.asInt() == 1))) {
            throw ApiException.badRequest("disaggregated_params.schedule_style must be 0 or 1, got " + style);
        }
        boolean generationFirst = style != null && style.asInt() == 1;
        if (CONTEXT_ONLY.equals(type)) {
            return new TrtDisaggParams(type, id, null, null, generationFirst);
        }
        long ctxRequestId = longField(params, "ctx_request_id");
        if (generationFirst && ctxRequestId != id) {
            throw ApiException.badRequest("generation_first needs ctx_request_id == disagg_request_id, got "
                    + ctxRequestId + " and " + id);
        }
        JsonNode rank = params.get("ctx_dp_rank");
        if (rank != null && !rank.isNull() && !(rank.isIntegralNumber() && rank.asInt() == 0)) {
            throw ApiException.badRequest("disaggregated_params.ctx_dp_rank " + rank + " names no rank of the "
                    + "context worker (it runs one, rank 0)");
        }
        return new TrtDisaggParams(type, id, ctxRequestId, endpoint(params.get("ctx_info_endpoint")), generationFirst);
    }

    private static long longField(JsonNode params, String name) throws ApiException {
        JsonNode value = params.get(name);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            throw ApiException.badRequest("disaggregated_params." + name + " must be an integer, got " + value);
        }
        return value.asLong();
    }

    private static String endpoint(JsonNode value) throws ApiException {
        if (value == null || !value.isTextual()) {
            throw ApiException.badRequest("generation_only needs disaggregated_params.ctx_info_endpoint, got " + value);
        }
        try {
            URI uri = new URI(value.asText());
            if (!"tcp".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 1) {
                throw new URISyntaxException(value.asText(), "expected tcp://host:port");
            }
        } catch (URISyntaxException e) {
            throw ApiException.badRequest("disaggregated_params.ctx_info_endpoint " + value + " is not tcp://host:port");
        }
        return value.asText();
    }
}
