package io.pdgateway.routingsim.engine;

/** What one engine has done, for its scraped metrics and the run's report. Mutated by its engine only. */
public final class EngineCounters {
    long generatedTokens;
    long promptTokens;
    long prefixQueriedTokens;
    long prefixHitTokens;
    long prefillCount;
    double prefillSecondsSum;
    long busyNanos;
    long finished;
    long steps;

    /** Output tokens emitted, the prefill role's single token included (vllm:generation_tokens_total). */
    public long generatedTokens() {
        return generatedTokens;
    }

    /** Prompt tokens of requests that produced their first token here (vllm:prompt_tokens_total). */
    public long promptTokens() {
        return promptTokens;
    }

    public long prefixQueriedTokens() {
        return prefixQueriedTokens;
    }

    public long prefixHitTokens() {
        return prefixHitTokens;
    }

    /** Virtual time with a step in flight: the pod's GPU busy time. */
    public long busyNanos() {
        return busyNanos;
    }

    public long finished() {
        return finished;
    }

    public long steps() {
        return steps;
    }

    /** Mean prefill time in ms from admission to the last prompt token, as the gateway reads the histogram. */
    double avgPrefillMillis() {
        return prefillCount == 0 ? Double.NaN : prefillSecondsSum / prefillCount * 1000;
    }
}
