package io.pdgateway.server.load;

/**
 * One request of a workload.
 *
 * @param arrivalMillis when it is sent, in milliseconds from the start of the run
 * @param prompt        how to build its prompt text
 * @param outputTokens  the completion length asked for ({@code max_tokens})
 * @param sessionKey    sent as {@code x-aibrix-session-key} when not null (turns of one conversation)
 */
public record LoadRequest(long arrivalMillis, PromptPlan prompt, int outputTokens, String sessionKey) {
    public LoadRequest {
        if (arrivalMillis < 0) {
            throw new IllegalArgumentException("arrivalMillis must be >= 0, got " + arrivalMillis);
        }
        if (outputTokens < 1) {
            throw new IllegalArgumentException("outputTokens must be >= 1, got " + outputTokens);
        }
    }

    public LoadRequest at(long millis) {
        return new LoadRequest(millis, prompt, outputTokens, sessionKey);
    }
}
