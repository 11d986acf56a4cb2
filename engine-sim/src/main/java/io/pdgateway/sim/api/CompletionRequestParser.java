package io.pdgateway.sim.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.PromptTokens;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.TextTokens;

/**
 * Validates a completion request the way vLLM's OpenAI server does, closely enough for a gateway to meet the
 * same refusals: 400 for a body that is not a JSON object, a missing {@code model} or prompt field, bad token
 * limits or a prompt too long for the context; 404 for a model the pod does not serve.
 */
final class CompletionRequestParser {
    /** The most completions one request may sample here (vLLM sets no limit; the simulator keeps its own bounded). */
    static final int MAX_CHOICES = 128;

    private final SimConfig config;
    private final EnginePersonality personality;
    /** Longest prompt + completion: the model's context, and never more than the KV cache holds. */
    private final int contextLimit;
    private final TextTokens textTokens;

    CompletionRequestParser(SimConfig config, EnginePersonality personality, int kvCapacityTokens,
            TextTokens textTokens) {
        this.config = config;
        this.personality = personality;
        this.textTokens = textTokens;
        this.contextLimit = Math.min(config.timing().maxModelLen(), kvCapacityTokens);
    }

    /** The request body as a JSON object, or the 400 vLLM answers a body that is not one. */
    static ObjectNode requestObject(String body) throws ApiException {
        JsonNode json;
        try {
            json = JsonCodec.MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("Invalid JSON in request body: " + e.getOriginalMessage());
        }
        if (json == null || !json.isObject()) {
            throw ApiException.badRequest("Request body must be a JSON object");
        }
        return (ObjectNode) json;
    }

    CompletionRequest parse(String body, CompletionApi api) throws ApiException {
        JsonNode json = api.normalize(requestObject(body), config.modelName());
        JsonNode model = json.get("model");
        if (model == null || model.isNull()) {
            throw ApiException.badRequest("Field required: model");
        }
        if (!model.isTextual()) {
            throw ApiException.badRequest("model must be a string");
        }
        if (!api.hasPrompt(json)) {
            throw ApiException.badRequest("Field required: " + api.promptField());
        }
        PromptTokens prompt = personality.prompt(json, api, config.timing().blockSizeTokens(), textTokens);
        if (!model.asText().equals(config.modelName())) {
            throw new ApiException(404, "The model `" + model.asText() + "` does not exist.");
        }
        boolean stream = optionalBoolean(json, "stream", false);
        boolean includeUsage = includeUsage(json, stream);
        Integer requested = optionalInt(json, "max_completion_tokens");
        if (requested == null) {
            requested = optionalInt(json, "max_tokens");
        }
        if (requested != null && requested < 1) {
            throw ApiException.badRequest("max_tokens must be at least 1, got " + requested + ".");
        }
        int maxTokens = requested != null ? requested
                : Math.max(1, Math.min(config.defaultMaxTokens(), contextLimit - prompt.count()));
        if ((long) prompt.count() + maxTokens > contextLimit) {
            throw ApiException.badRequest("This model's maximum context length is " + contextLimit
                    + " tokens. However, you requested " + ((long) prompt.count() + maxTokens) + " tokens ("
                    + prompt.count() + " in the messages, " + maxTokens + " in the completion). "
                    + "Please reduce the length of the messages or completion.");
        }
        Integer minTokens = optionalInt(json, "min_tokens");
        int min = minTokens == null ? 0 : minTokens;
        if (min < 0) {
            throw ApiException.badRequest("min_tokens must be greater than or equal to 0, got " + min + ".");
        }
        if (min > maxTokens) {
            throw ApiException.badRequest(
                    "min_tokens must be less than or equal to max_tokens=" + maxTokens + ", got " + min + ".");
        }
        Integer n = optionalInt(json, "n");
        int choices = n == null ? 1 : n;
        if (choices < 1) {
            throw ApiException.badRequest("n must be at least 1, got " + choices + ".");
        }
        if (choices > MAX_CHOICES) {
            throw ApiException.badRequest("n must be at most " + MAX_CHOICES + " on this simulator, got " + choices
                    + ".");
        }
        JsonNode rid = json.get("rid");
        return new CompletionRequest(json, model.asText(), stream, includeUsage, maxTokens, min, prompt,
                rid != null && rid.isTextual() ? rid.asText() : null, choices);
    }

    private static boolean includeUsage(JsonNode json, boolean stream) throws ApiException {
        JsonNode options = json.get("stream_options");
        if (options == null || options.isNull()) {
            return false;
        }
        if (!stream) {
            throw ApiException.badRequest("Stream options can only be defined when `stream=True`.");
        }
        if (!options.isObject()) {
            throw ApiException.badRequest("stream_options must be an object");
        }
        return optionalBoolean(options, "include_usage", false);
    }

    private static boolean optionalBoolean(JsonNode json, String field, boolean absent) throws ApiException {
        JsonNode node = json.get(field);
        if (node == null || node.isNull()) {
            return absent;
        }
        if (!node.isBoolean()) {
            throw ApiException.badRequest(field + " must be a boolean");
        }
        return node.asBoolean();
    }

    private static Integer optionalInt(JsonNode json, String field) throws ApiException {
        JsonNode node = json.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            throw ApiException.badRequest(field + " must be an integer");
        }
        return node.asInt();
    }
}
