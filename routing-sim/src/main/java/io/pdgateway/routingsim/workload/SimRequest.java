package io.pdgateway.routingsim.workload;

/**
 * One client request of a workload. Shared read-only by every policy's run: the same event stream replayed into each.
 *
 * @param index position in the workload, from 0; also its request id
 * @param arrivalNanos when the client sends it, from the start of the run
 * @param promptTokens prompt length in tokens, as both the engine and the gateway's bucketing count it
 * @param outputTokens tokens the engine generates (max_tokens; the simulated engine always generates them all)
 * @param blockHashes chained hashes of the prompt's full KV blocks: two prompts share block i exactly when they share
 *     their first (i + 1) blocks; the engine's prefix cache and the gateway's prefix index both key on them
 * @param sessionKey the x-aibrix-session-key header, or null
 */
public record SimRequest(int index, long arrivalNanos, int promptTokens, int outputTokens, long[] blockHashes,
        String sessionKey) {

    public SimRequest {
        if (promptTokens < 1 || outputTokens < 1) {
            throw new IllegalArgumentException("request " + index + " needs at least one prompt and one output token");
        }
    }

    /** The same request at another arrival time or output length (rate scaling, output caps). */
    public SimRequest reshaped(int newIndex, long newArrivalNanos, int newOutputTokens) {
        return new SimRequest(newIndex, newArrivalNanos, promptTokens, newOutputTokens, blockHashes, sessionKey);
    }
}
