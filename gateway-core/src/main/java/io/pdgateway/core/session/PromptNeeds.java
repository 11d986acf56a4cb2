package io.pdgateway.core.session;

/**
 * What the edge must measure in a request's prompt before routing it: measuring costs CPU (cl100k over a long prompt
 * takes milliseconds), so only what the strategy, its policy and the settings read is computed.
 *
 * @param tokenCount the real token count, not the four-bytes-per-token estimate (bucketing, conductor)
 * @param blockHashes the prompt's prefix-block hashes (a policy or strategy looks the prefix cache up)
 */
public record PromptNeeds(boolean tokenCount, boolean blockHashes) {
    public static final PromptNeeds NOTHING = new PromptNeeds(false, false);
}
