package io.pdgateway.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.core.tokenize.SpecialTokens;
import io.pdgateway.sim.PromptTokens;
import io.pdgateway.sim.TextTokens;
import java.util.List;
import java.util.stream.LongStream;

/**
 * {@code /v1/completions} in vLLM's shapes: {@code text_completion} objects and chunks, the finish reason on the
 * last token's chunk. The prompt is a string, a list of token ids, or a list of strings (counted as one text).
 */
public final class TextCompletionApi implements CompletionApi {

    static final String PATH = "/v1/completions";

    @Override
    public String path() {
        return PATH;
    }

    @Override
    public String promptField() {
        return "prompt";
    }

    @Override
    public PromptTokens prompt(JsonNode body, int blockSize, TextTokens tokens) throws ApiException {
        JsonNode prompt = body.get("prompt");
        if (!SpecialTokens.added(body, false)) {
            tokens = tokens.withoutSpecialTokens();
        }
        if (prompt.isTextual()) {
            return tokens.of(prompt.asText(), blockSize);
        }
        if (prompt.isArray() && !prompt.isEmpty()) {
            if (allMatch(prompt, JsonNode::isIntegralNumber)) {
                long[] ids = new long[prompt.size()];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = prompt.get(i).asLong();
                }
                return PromptTokens.ofIds(ids, blockSize);
            }
            if (allMatch(prompt, JsonNode::isTextual)) {
                StringBuilder text = new StringBuilder();
                prompt.forEach(p -> text.append(p.asText()));
                return tokens.of(text.toString(), blockSize);
            }
            if (allMatch(prompt, p -> p.isArray() && allMatch(p, JsonNode::isIntegralNumber))) {
                // A batch of token-id prompts, as vLLM takes them; computed here as one, like a list of strings.
                LongStream.Builder ids = LongStream.builder();
                prompt.forEach(p -> p.forEach(id -> ids.add(id.asLong())));
                return PromptTokens.ofIds(ids.build().toArray(), blockSize);
            }
        }
        throw ApiException.badRequest("prompt must be a string, a list of strings, a list of token ids or a list of "
                + "such lists");
    }

    private static boolean allMatch(JsonNode array, java.util.function.Predicate<JsonNode> test) {
        for (JsonNode item : array) {
            if (!test.test(item)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String idPrefix() {
        return "cmpl-";
    }

    @Override
    public List<ObjectNode> streamPreamble(ResponseHead head) {
        return List.of();
    }

    @Override
    public ObjectNode tokenChunk(ResponseHead head, String text, String finishReason) {
        ObjectNode chunk = head(head);
        ObjectNode choice = chunk.putArray("choices").addObject();
        choice.put("index", 0);
        choice.put("text", text);
        choice.putNull("logprobs");
        choice.put("finish_reason", finishReason);
        choice.putNull("stop_reason");
        return chunk;
    }

    @Override
    public ObjectNode usageChunk(ResponseHead head, ObjectNode usage) {
        ObjectNode chunk = head(head);
        chunk.putArray("choices");
        chunk.set("usage", usage);
        return chunk;
    }

    @Override
    public ObjectNode completion(ResponseHead head, String text, String finishReason, ObjectNode usage) {
        ObjectNode response = head(head);
        ObjectNode choice = response.putArray("choices").addObject();
        choice.put("index", 0);
        choice.put("text", text);
        choice.putNull("logprobs");
        choice.put("finish_reason", finishReason);
        choice.putNull("stop_reason");
        choice.putNull("prompt_logprobs");
        response.putNull("service_tier");
        response.putNull("system_fingerprint");
        response.set("usage", usage);
        response.putNull("kv_transfer_params");
        return response;
    }

    private static ObjectNode head(ResponseHead head) {
        ObjectNode node = JsonCodec.object();
        node.put("id", head.id());
        node.put("object", "text_completion");
        node.put("created", head.created());
        node.put("model", head.model());
        return node;
    }
}
