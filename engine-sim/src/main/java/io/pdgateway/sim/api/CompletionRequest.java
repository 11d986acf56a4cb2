package io.pdgateway.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.pdgateway.sim.PromptTokens;

/**
 * A validated OpenAI completion request, chat or text.
 *
 * @param body         the parsed body, for engine-specific fields (vLLM: kv_transfer_params, disagg_prefill_resp)
 * @param model        the requested model, equal to the served one
 * @param stream       whether to answer with server-sent events
 * @param includeUsage {@code stream_options.include_usage}: send a usage chunk before {@code [DONE]}
 * @param maxTokens    tokens to generate
 * @param minTokens    {@code min_tokens} (the simulator always generates maxTokens, so it only validates it)
 * @param prompt       the prompt as the simulator counts it
 * @param rid          the body's {@code rid} (SGLang's request id) when it is a string, else null
 * @param choices      {@code n}: how many completions to sample (1 when absent)
 */
public record CompletionRequest(
        JsonNode body,
        String model,
        boolean stream,
        boolean includeUsage,
        int maxTokens,
        int minTokens,
        PromptTokens prompt,
        String rid,
        int choices) {
}
