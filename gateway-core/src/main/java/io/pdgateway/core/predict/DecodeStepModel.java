package io.pdgateway.core.predict;

/**
 * How long one decode step of a pod takes, the engine's own cost model (reference/engine-timing.md §7.1): a floor, a
 * cost per running sequence and one per token of context the step attends to,
 *
 * <pre>  step = d + e · B + f · ΣC</pre>
 *
 * Every running request waits one step per output token, so a request joining a pod that runs B requests over ΣC
 * tokens of context makes each of their tokens e + f · C later and waits e · B + f · ΣC longer for each of its own than
 * on an idle pod. predicted_ttft reads it for the decode side of a pair. Coefficients in milliseconds.
 */
public record DecodeStepModel(double floorMillis, double millisPerSequence, double millisPerContextToken) {
    /** Llama-3-8B on one H100 with vLLM (reference/engine-timing.md §9, line 3). */
    public static final DecodeStepModel LLAMA3_8B_H100 = new DecodeStepModel(7.2, 0.012, 4.4e-5);

    /** One step with {@code sequences} running over {@code contextTokens} tokens of context, in milliseconds. */
    public double stepMillis(double sequences, double contextTokens) {
        return floorMillis + millisPerSequence * sequences + millisPerContextToken * contextTokens;
    }

    /** What one more sequence of {@code contextTokens} adds to every step, in milliseconds. */
    public double addedPerStepMillis(double contextTokens) {
        return millisPerSequence + millisPerContextToken * contextTokens;
    }
}
