package io.pdgateway.sim.sglang;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.PromptTokens;
import io.pdgateway.sim.TextTokens;
import io.pdgateway.sim.api.ApiException;
import io.pdgateway.sim.api.CompletionApi;
import io.pdgateway.sim.api.JsonCodec;
import io.pdgateway.sim.api.ResponseHead;
import io.vertx.core.http.HttpMethod;
import java.util.List;

/**
 * SGLang's native {@code POST /generate} (also PUT), the API sglang-router's PD mode sends to both legs:
 * <ul>
 *   <li>the prompt is {@code text} (a string) or {@code input_ids} (token ids); a batch (a list of texts) is refused;
 *       the body names no model (the pod serves one) and the limits sit in {@code sampling_params}
 *       ({@code max_new_tokens}, default 128, and {@code min_new_tokens}); the bootstrap fields, {@code rid} and
 *       {@code stream} are top-level, as in the OpenAI bodies;</li>
 *   <li>the answer is {@code {"text", "meta_info": {id, finish_reason, prompt_tokens, completion_tokens,
 *       cached_tokens}}}, where {@code finish_reason} is null until the end and then an object
 *       ({@code {"type": "length", "length": n}}, {@code {"type": "stop", "matched": null}} or
 *       {@code {"type": "abort", "message": ...}}); a stream sends one such object per token with the whole text so
 *       far in {@code text} (SGLang's default, not the delta), then {@code data: [DONE]}.</li>
 * </ul>
 */
public final class SglangGenerateApi implements CompletionApi {

    public static final String PATH = "/generate";
    /** SGLang's default sampling_params.max_new_tokens. */
    static final int DEFAULT_MAX_NEW_TOKENS = 128;

    @Override
    public String path() {
        return PATH;
    }

    @Override
    public List<HttpMethod> methods() {
        return List.of(HttpMethod.POST, HttpMethod.PUT);
    }

    @Override
    public String promptField() {
        return "text";
    }

    @Override
    public boolean hasPrompt(JsonNode body) {
        return body.hasNonNull("text") || body.hasNonNull("input_ids");
    }

    /** The pod's model, and sampling_params' limits as max_tokens and min_tokens. */
    @Override
    public ObjectNode normalize(ObjectNode body, String servedModel) throws ApiException {
        if (!hasPrompt(body)) {
            throw ApiException.badRequest("Either text, input_ids or input_embeds should be provided.");
        }
        if (body.hasNonNull("text") && body.hasNonNull("input_ids")) {
            throw ApiException.badRequest("Either text or input_ids should be provided, not both.");
        }
        ObjectNode normalized = body.deepCopy();
        if (!normalized.has("model")) {
            normalized.put("model", servedModel);
        }
        JsonNode sampling = body.get("sampling_params");
        if (sampling != null && !sampling.isNull() && !sampling.isObject()) {
            throw ApiException.badRequest("sampling_params must be an object");
        }
        JsonNode max = sampling == null ? null : sampling.get("max_new_tokens");
        if (max == null || max.isNull()) {
            normalized.put("max_tokens", DEFAULT_MAX_NEW_TOKENS);
        } else {
            normalized.set("max_tokens", max);
        }
        JsonNode min = sampling == null ? null : sampling.get("min_new_tokens");
        if (min != null) {
            normalized.set("min_tokens", min);
        }
        return normalized;
    }

    @Override
    public PromptTokens prompt(JsonNode body, int blockSize, TextTokens textTokens) throws ApiException {
        JsonNode text = body.get("text");
        if (text != null && !text.isNull()) {
            if (!text.isTextual()) {
                throw ApiException.badRequest("text must be a string (batched /generate is not simulated)");
            }
            return textTokens.of(text.asText(), blockSize);
        }
        JsonNode ids = body.get("input_ids");
        if (!ids.isArray() || ids.isEmpty()) {
            throw ApiException.badRequest("input_ids must be a non-empty list of token ids");
        }
        long[] tokens = new long[ids.size()];
        for (int i = 0; i < tokens.length; i++) {
            if (!ids.get(i).isIntegralNumber()) {
                throw ApiException.badRequest("input_ids must be a non-empty list of token ids "
                        + "(batched /generate is not simulated)");
            }
            tokens[i] = ids.get(i).asLong();
        }
        return PromptTokens.ofIds(tokens, blockSize);
    }

    /** meta_info.id is the request's rid, or a random id: no prefix. */
    @Override
    public String idPrefix() {
        return "";
    }

    @Override
    public List<ObjectNode> streamPreamble(ResponseHead head) {
        return List.of();
    }

    @Override
    public ObjectNode tokenChunk(ResponseHead head, String text, String finishReason) {
        throw new UnsupportedOperationException("/generate chunks carry the whole text so far");
    }

    @Override
    public ObjectNode tokenChunk(ResponseHead head, String text, String finishReason, Progress progress) {
        return answer(head, progress.text().toString(), finishReason, progress);
    }

    /** /generate has no stream_options; a usage-only event never goes out. */
    @Override
    public ObjectNode usageChunk(ResponseHead head, ObjectNode usage) {
        throw new UnsupportedOperationException("/generate has no usage chunk");
    }

    @Override
    public ObjectNode completion(ResponseHead head, String text, String finishReason, ObjectNode usage) {
        throw new UnsupportedOperationException("/generate answers carry meta_info");
    }

    @Override
    public ObjectNode completion(ResponseHead head, String text, String finishReason, ObjectNode usage,
            Progress progress) {
        return answer(head, text, finishReason, progress);
    }

    private static ObjectNode answer(ResponseHead head, String text, String finishReason, Progress progress) {
        ObjectNode answer = JsonCodec.object();
        answer.put("text", text);
        ObjectNode meta = answer.putObject("meta_info");
        meta.put("id", head.id());
        if (finishReason == null) {
            meta.putNull("finish_reason");
        } else {
            ObjectNode reason = meta.putObject("finish_reason");
            reason.put("type", finishReason);
            switch (finishReason) {
                case "length" -> reason.put("length", progress.completionTokens());
                case "abort" -> reason.put("message", "Abort request " + head.id());
                default -> reason.putNull("matched");
            }
        }
        meta.put("prompt_tokens", progress.promptTokens());
        meta.put("completion_tokens", progress.completionTokens());
        meta.put("cached_tokens", progress.cachedTokens());
        return answer;
    }
}
