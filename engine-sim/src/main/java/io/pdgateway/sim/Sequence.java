package io.pdgateway.sim;

/**
 * One request inside the engine loop: how much of its prompt is computed, how many tokens it has produced,
 * and the moments the metrics need. Mutated only on the pod's event loop.
 */
public final class Sequence {

    final PromptTokens prompt;
    final int maxTokens;
    /** False for a decode-role request whose KV came from a prefill pod. */
    final boolean needsPrefill;
    final SequenceListener listener;
    /** When the request reached the pod (System.nanoTime), the origin of TTFT and e2e latency. */
    final long arrivalNanos;

    int cachedTokens;
    int prefilledTokens;
    int generated;
    int reservedBlocks;
    /** When it joined the scheduler's waiting queue. */
    long queuedNanos;
    long admittedNanos;
    long firstTokenNanos;
    long pendingTimer = -1;
    boolean cancelled;
    boolean finished;

    public Sequence(PromptTokens prompt, int maxTokens, boolean needsPrefill, SequenceListener listener, long arrivalNanos) {
        this.prompt = prompt;
        this.maxTokens = maxTokens;
        this.needsPrefill = needsPrefill;
        this.listener = listener;
        this.arrivalNanos = arrivalNanos;
        if (!needsPrefill) {
            prefilledTokens = prompt.count();
        }
    }

    /** Prompt tokens found in the prefix cache when the request was admitted. */
    public int cachedTokens() {
        return cachedTokens;
    }

    int promptTokens() {
        return prompt.count();
    }

    /** Prompt tokens still to compute; the cached prefix is never recomputed. */
    int remainingPrefill() {
        return prompt.count() - cachedTokens - prefilledTokens;
    }

    boolean prefillDone() {
        return needsPrefill ? remainingPrefill() <= 0 : true;
    }

    /** Tokens resident in the KV cache: the prompt and everything generated so far. */
    long context() {
        return (long) prompt.count() + generated;
    }
}
