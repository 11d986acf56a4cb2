package io.pdgateway.server.routing;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.prefix.PrefixHasher;
import io.pdgateway.server.front.OpenAiRequest;
import java.nio.charset.StandardCharsets;

/**
 * What routing reads from the prompt: its length in tokens and its prefix-block hashes. Computing them costs CPU
 * (cl100k over a long prompt takes milliseconds), so only what the request's strategy and policy need is computed,
 * and the caller runs this off the event loop for long prompts.
 *
 * @param promptTokens cl100k count when counted; otherwise an estimate of one token per four characters
 * @param bodyTokenEstimate the spec's token_load estimate of prompt_tokens: request body bytes / 4
 */
public record PromptFeatures(int promptTokens, long[] prefixHashes, long bodyTokenEstimate) {
    /** Spec, token_load: "prompt_tokens is estimated as one token per four bytes". */
    static final int BYTES_PER_TOKEN_ESTIMATE = 4;

    public static PromptFeatures compute(OpenAiRequest request, RoutingService.Preparation prep, String tokenizer) {
        boolean tiktokenHashes = prep.needsPrefixHashes() && GatewaySettings.TOKENIZER_TIKTOKEN.equals(tokenizer);
        int[] tokenIds = null;
        int tokens;
        if (request.promptTokenIds() >= 0) {
            tokens = request.promptTokenIds();
        } else if (tiktokenHashes) {
            tokenIds = PromptTokenizer.encode(request.promptText());
            tokens = tokenIds.length;
        } else if (prep.needsTokenCount()) {
            tokens = PromptTokenizer.count(request.promptText());
        } else {
            tokens = request.promptText().length() / BYTES_PER_TOKEN_ESTIMATE;
        }
        long[] hashes = null;
        if (prep.needsPrefixHashes()) {
            byte[] data = tokenIds != null ? PrefixHasher.tokenBytes(tokenIds)
                    : request.promptText().getBytes(StandardCharsets.UTF_8);
            hashes = PrefixHasher.hash(request.model(), data, PrefixHasher.DEFAULT_BLOCK_SIZE);
        }
        return new PromptFeatures(tokens, hashes, request.raw().length / BYTES_PER_TOKEN_ESTIMATE);
    }

    /** True when computing the features is worth moving off the event loop. */
    public static boolean expensive(OpenAiRequest request, RoutingService.Preparation prep) {
        return (prep.needsTokenCount() || prep.needsPrefixHashes())
                && request.promptText().length() > INLINE_MAX_CHARS;
    }

    /**
     * Prompts longer than this many characters are tokenized on a worker thread: cl100k over ~32 KB of text takes
     * milliseconds, long enough to delay every other stream on the same event loop.
     */
    static final int INLINE_MAX_CHARS = 32 * 1024;
}
