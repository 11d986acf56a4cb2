package io.pdgateway.core.session;

/**
 * What routing reads from one request's prompt, measured at the edge as its {@link PromptNeeds} say.
 *
 * @param promptTokens the prompt's length in tokens (counted when needed; otherwise an estimate)
 * @param prefixHashes the prompt's prefix-block hashes, empty when not needed
 * @param bodyTokenEstimate the spec's token_load estimate of prompt_tokens: request body bytes / 4
 */
public record PromptFeatures(int promptTokens, long[] prefixHashes, long bodyTokenEstimate) {
    private static final long[] NONE = new long[0];

    /** Spec, token_load: "prompt_tokens is estimated as one token per four bytes of request body". */
    public static final int BYTES_PER_TOKEN_ESTIMATE = 4;

    public PromptFeatures {
        if (prefixHashes == null) {
            prefixHashes = NONE;
        }
    }
}
