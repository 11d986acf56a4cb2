package io.pdgateway.sim;

/**
 * The simulated model's output: pseudo-words picked from the pod's seed and the prompt's digest, so the same
 * prompt yields the same completion on every pod sharing a seed (a PD pair answers exactly like a combined pod).
 */
public final class TextGenerator {

    private static final String[] WORDS = {
        "the", "model", "token", "cache", "prefill", "decode", "stream", "router", "latency", "batch",
        "engine", "signal", "vector", "matrix", "kernel", "tensor", "layer", "block", "queue", "budget",
        "answer", "question", "river", "mountain", "garden", "window", "morning", "silver", "quiet", "bright",
        "simple", "steady", "quick", "gentle", "north", "south", "paper", "stone", "light", "shadow",
        "and", "of", "to", "in", "is", "for", "with", "on", "as", "by",
        "under", "over", "between", "through", "after", "before", "again", "always", "never", "often",
        "pod", "gateway", "request", "response",
    };

    private final long seed;

    public TextGenerator(long seed) {
        this.seed = seed;
    }

    /** Token {@code index} of the completion of {@code prompt}: a word, with a leading space after the first. */
    public String token(PromptTokens prompt, int index) {
        return token(prompt, 0, index);
    }

    /**
     * Token {@code index} of choice {@code choice} of the completion of {@code prompt} (a request's {@code n}
     * sampled completions differ; choice 0 is {@link #token(PromptTokens, int)}).
     */
    public String token(PromptTokens prompt, int choice, int index) {
        long h = (seed ^ prompt.digestBits() ^ 0x632be59bd9b4e019L * choice) + 0x9e3779b97f4a7c15L * (index + 1);
        h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
        h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
        h ^= h >>> 31;
        String word = WORDS[(int) Math.floorMod(h, (long) WORDS.length)];
        return index == 0 ? word : " " + word;
    }
}
