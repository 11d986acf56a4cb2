package io.pdgateway.routingsim.engine;

/**
 * One request inside an engine, as engine-sim's Sequence: how much of its prompt is computed, how many tokens it has
 * produced, and the moments the metrics need. Mutated only by its engine.
 */
public final class EngineRequest {
    final long[] blockHashes;
    final int promptTokens;
    final int maxTokens;
    /** False for a decode-role request whose KV came from a prefill pod. */
    final boolean needsPrefill;
    final EngineListener listener;

    int cachedTokens;
    int prefilledTokens;
    int generated;
    int reservedBlocks;
    /** Prompt tokens the step in flight is computing for this request (0 when none). */
    int stepTokens;
    long submittedAt;
    long admittedAt;
    long firstTokenAt;
    boolean finished;

    /**
     * @param blockHashes chained hashes of the prompt's full KV blocks (the prefix-cache keys); shared, never changed
     */
    public EngineRequest(long[] blockHashes, int promptTokens, int maxTokens, boolean needsPrefill,
            EngineListener listener) {
        if (promptTokens < 1 || maxTokens < 1) {
            throw new IllegalArgumentException("a request needs at least one prompt and one output token");
        }
        this.blockHashes = blockHashes;
        this.promptTokens = promptTokens;
        this.maxTokens = maxTokens;
        this.needsPrefill = needsPrefill;
        this.listener = listener;
        if (!needsPrefill) {
            prefilledTokens = promptTokens;
        }
    }

    public int promptTokens() {
        return promptTokens;
    }

    public int maxTokens() {
        return maxTokens;
    }

    /** Prompt tokens found in the engine's prefix cache at admission (0 before, and for remote-KV requests). */
    public int cachedTokens() {
        return cachedTokens;
    }

    public long firstTokenAt() {
        return firstTokenAt;
    }

    /** Prompt tokens still to compute; the cached prefix is never recomputed. */
    int remainingPrefill() {
        return promptTokens - cachedTokens - prefilledTokens;
    }

    boolean prefillDone() {
        return !needsPrefill || remainingPrefill() <= 0;
    }

    /** Tokens resident in the KV cache: the prompt and everything generated so far. */
    long context() {
        return (long) promptTokens + generated;
    }
}
