package io.pdgateway.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.PromptTokens;
import io.pdgateway.sim.TextTokens;
import io.vertx.core.http.HttpMethod;
import java.util.List;

/**
 * What differs between {@code /v1/chat/completions}, {@code /v1/completions} and an engine's native generate API
 * (SGLang's {@code /generate}): the path, the prompt field, how the body names the model and its limits, and the
 * shapes of the answer.
 */
public interface CompletionApi {

    /** What an answer reports about its request so far: token counts, and the text generated up to now. */
    record Progress(int promptTokens, int cachedTokens, int completionTokens, CharSequence text) {}

    String path();

    /** The methods the path answers. */
    default List<HttpMethod> methods() {
        return List.of(HttpMethod.POST);
    }

    /**
     * The body as the OpenAI checks read it: an API whose body names no model, or puts its limits elsewhere, maps
     * them onto {@code model}, {@code max_tokens} and {@code min_tokens} here. Refuses (400) what it cannot map.
     */
    default ObjectNode normalize(ObjectNode body, String servedModel) throws ApiException {
        return body;
    }

    /** Whether the body carries a prompt; the OpenAI APIs need {@link #promptField()}. */
    default boolean hasPrompt(JsonNode body) {
        return body.hasNonNull(promptField());
    }

    /** The body field holding the prompt: {@code messages} or {@code prompt}. */
    String promptField();

    /**
     * Counts the prompt; fails with 400 when the field has the wrong shape.
     *
     * @param text how the pod tokenizes text ({@link TextTokens})
     */
    PromptTokens prompt(JsonNode body, int blockSize, TextTokens text) throws ApiException;

    /** Prefix of the response id: {@code chatcmpl-} or {@code cmpl-}. */
    String idPrefix();

    /** Chunks sent before the first token chunk (chat: the one carrying {@code delta.role}). */
    List<ObjectNode> streamPreamble(ResponseHead head);

    ObjectNode tokenChunk(ResponseHead head, String text, String finishReason);

    /** The chunk of one token, for APIs that report more than the token itself (SGLang: the text so far). */
    default ObjectNode tokenChunk(ResponseHead head, String text, String finishReason, Progress progress) {
        return tokenChunk(head, text, finishReason);
    }

    /** The chunk after the last token when {@code stream_options.include_usage} is set: no choices, usage only. */
    ObjectNode usageChunk(ResponseHead head, ObjectNode usage);

    /** The whole non-streaming response. */
    ObjectNode completion(ResponseHead head, String text, String finishReason, ObjectNode usage);

    /** The whole non-streaming response, for APIs that report more than the usage (SGLang: cached tokens). */
    default ObjectNode completion(ResponseHead head, String text, String finishReason, ObjectNode usage,
            Progress progress) {
        return completion(head, text, finishReason, usage);
    }

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
