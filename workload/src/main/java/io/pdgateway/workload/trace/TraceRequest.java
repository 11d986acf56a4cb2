package io.pdgateway.workload.trace;

/**
 * One row of a recorded trace, as recorded: when it arrived, how long its prompt and answer were, and which of the
 * prompt's blocks it shares with other rows. Traces carry no text; each tool builds what it needs from this: bench
 * turns it into prompt text (rows that share block ids share that text), routing-sim into KV-block hashes.
 *
 * @param index         position in the trace, from 0: names the row's own content when it shares nothing
 * @param arrivalMillis milliseconds from the first row (fractional when the trace records it so)
 * @param promptTokens  prompt length, at least 1
 * @param outputTokens  completion length, at least 1 (traces hold a few zero-length answers)
 * @param hashIds       ids of the prompt's leading {@link #HASH_BLOCK_TOKENS}-token blocks, in order: two rows share
 *                      a block's content exactly when their ids agree up to it (Mooncake); empty when the trace
 *                      records no prefix structure (Azure), so the prompt shares nothing
 */
public record TraceRequest(int index, double arrivalMillis, int promptTokens, int outputTokens, long[] hashIds) {
    /** Mooncake's block size: "ids of the prompt's 512-token blocks" (shared/traces/README.md). */
    public static final int HASH_BLOCK_TOKENS = 512;

    public TraceRequest {
        if (promptTokens < 1 || outputTokens < 1) {
            throw new IllegalArgumentException("row " + index + " needs at least one prompt and one output token");
        }
        hashIds = hashIds.clone();
    }

    @Override
    public long[] hashIds() {
        return hashIds.clone();
    }

    /** Whether the hash ids cover the whole prompt; a row listing too few ids has a tail of its own. */
    public boolean hashIdsCoverPrompt() {
        return (long) hashIds.length * HASH_BLOCK_TOKENS >= promptTokens;
    }
}
