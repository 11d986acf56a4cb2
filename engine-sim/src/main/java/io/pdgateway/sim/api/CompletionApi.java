package io.pdgateway.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.PromptTokens;
import java.util.List;

/** What differs between {@code /v1/chat/completions} and {@code /v1/completions}: the prompt field and the shapes. */
public interface CompletionApi {

    String path();

    /** The body field holding the prompt: {@code messages} or {@code prompt}. */
    String promptField();

    /**
     * Counts the prompt; fails with 400 when the field has the wrong shape.
     *
     * @param asIds read text as pseudo token ids ({@link PromptTokens#ofTextAsIds}), for engines that report them
     */
    PromptTokens prompt(JsonNode body, int blockSize, boolean asIds) throws ApiException;

    /** Prefix of the response id: {@code chatcmpl-} or {@code cmpl-}. */
    String idPrefix();

    /** Chunks sent before the first token chunk (chat: the one carrying {@code delta.role}). */
    List<ObjectNode> streamPreamble(ResponseHead head);

    ObjectNode tokenChunk(ResponseHead head, String text, String finishReason);

    /** The chunk after the last token when {@code stream_options.include_usage} is set: no choices, usage only. */
    ObjectNode usageChunk(ResponseHead head, ObjectNode usage);

    /** The whole non-streaming response. */
    ObjectNode completion(ResponseHead head, String text, String finishReason, ObjectNode usage);

    /** OpenAI's usage object. */
    static ObjectNode usage(int promptTokens, int completionTokens) {
        ObjectNode usage = JsonCodec.object();
        usage.put("prompt_tokens", promptTokens);
        usage.put("total_tokens", promptTokens + completionTokens);
        usage.put("completion_tokens", completionTokens);
        usage.putNull("prompt_tokens_details");
        return usage;
    }
}
