package io.pdgateway.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.core.tokenize.ChatTemplate;
import io.pdgateway.core.tokenize.SpecialTokens;
import io.pdgateway.core.tokenize.TokenizerFormatException;
import io.pdgateway.sim.PromptTokens;
import io.pdgateway.sim.TextTokens;
import java.util.List;

/**
 * {@code /v1/chat/completions} in vLLM's shapes: {@code chat.completion} objects, {@code chat.completion.chunk}
 * chunks, a first chunk with {@code delta.role} and empty content, the finish reason on the last token's chunk.
 */
public final class ChatApi implements CompletionApi {

    public static final String PATH = "/v1/chat/completions";

    @Override
    public String path() {
        return PATH;
    }

    @Override
    public String promptField() {
        return "messages";
    }

    /**
     * A tokenizing pod's: the request rendered with its chat template, as vLLM renders it. A counting pod's: the
     * messages' text contents joined by spaces, content parts contributing their {@code text}.
     */
    @Override
    public PromptTokens prompt(JsonNode body, int blockSize, TextTokens tokens) throws ApiException {
        JsonNode messages = body.get("messages");
        if (!messages.isArray() || messages.isEmpty()) {
            throw ApiException.badRequest("messages must be a non-empty list of messages");
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode message : messages) {
            if (!message.isObject()) {
                throw ApiException.badRequest("each message must be an object with a role and content");
            }
            appendContent(text, message.get("content"));
        }
        ChatTemplate template = tokens.chatTemplate();
        if (template == null) {
            return tokens.of(text.toString(), blockSize);
        }
        TextTokens rendered = SpecialTokens.added(body, true) ? tokens : tokens.withoutSpecialTokens();
        try {
            return rendered.of(template.renderRequest(body), blockSize);
        } catch (TokenizerFormatException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }

    private static void appendContent(StringBuilder text, JsonNode content) throws ApiException {
        if (content == null || content.isNull()) {
            return;
        }
        if (content.isTextual()) {
            separate(text).append(content.asText());
        } else if (content.isArray()) {
            for (JsonNode part : content) {
                JsonNode partText = part.get("text");
                if (partText != null && partText.isTextual()) {
                    separate(text).append(partText.asText());
                }
            }
        } else {
            throw ApiException.badRequest("message content must be a string or a list of content parts");
        }
    }

    private static StringBuilder separate(StringBuilder text) {
        return text.isEmpty() ? text : text.append(' ');
    }

    @Override
    public String idPrefix() {
        return "chatcmpl-";
    }

    @Override
    public List<ObjectNode> streamPreamble(ResponseHead head) {
        ObjectNode chunk = chunk(head);
        ObjectNode choice = chunk.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode delta = choice.putObject("delta");
        delta.put("role", "assistant");
        delta.put("content", "");
        choice.putNull("logprobs");
        choice.putNull("finish_reason");
        return List.of(chunk);
    }

    @Override
    public ObjectNode tokenChunk(ResponseHead head, String text, String finishReason) {
        ObjectNode chunk = chunk(head);
        ObjectNode choice = chunk.putArray("choices").addObject();
        choice.put("index", 0);
        choice.putObject("delta").put("content", text);
        choice.putNull("logprobs");
        choice.put("finish_reason", finishReason);
        if (finishReason != null) {
            choice.putNull("stop_reason");
        }
        return chunk;
    }

    @Override
    public ObjectNode usageChunk(ResponseHead head, ObjectNode usage) {
        ObjectNode chunk = chunk(head);
        chunk.putArray("choices");
        chunk.set("usage", usage);
        return chunk;
    }

    @Override
    public ObjectNode completion(ResponseHead head, String text, String finishReason, ObjectNode usage) {
        ObjectNode response = JsonCodec.object();
        response.put("id", head.id());
        response.put("object", "chat.completion");
        response.put("created", head.created());
        response.put("model", head.model());
        ObjectNode choice = response.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode message = choice.putObject("message");
        message.put("role", "assistant");
        message.put("content", text);
        message.putNull("refusal");
        message.putArray("tool_calls");
        message.putNull("reasoning_content");
        choice.putNull("logprobs");
        choice.put("finish_reason", finishReason);
        choice.putNull("stop_reason");
        response.putNull("service_tier");
        response.putNull("system_fingerprint");
        response.set("usage", usage);
        response.putNull("prompt_logprobs");
        response.putNull("kv_transfer_params");
        return response;
    }

    private static ObjectNode chunk(ResponseHead head) {
        ObjectNode chunk = JsonCodec.object();
        chunk.put("id", head.id());
        chunk.put("object", "chat.completion.chunk");
        chunk.put("created", head.created());
        chunk.put("model", head.model());
        return chunk;
    }
}
