package io.pdgateway.core.bucket;

/** Prompt lengths [lower, upper] (inclusive) that the plan sends to one roleset. */
public record Band(String roleset, int lower, int upper) {
    public boolean covers(int promptTokens) {
        return promptTokens >= lower && promptTokens <= upper;
    }
}
