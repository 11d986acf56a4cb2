package io.pdgateway.engine;

/** The prefill rewrite every engine shares (reference §1.1): one token, no stream, no streaming or min-length options. */
public final class PrefillBodies {
    static final String MAX_TOKENS = "max_tokens";
    static final String MAX_COMPLETION_TOKENS = "max_completion_tokens";
    static final String STREAM = "stream";
    static final String STREAM_OPTIONS = "stream_options";
    static final String MIN_TOKENS = "min_tokens";

    private PrefillBodies() {}

    /**
     * The client body made into a one-token, non-streaming request, as top-level byte edits. {@code
     * keepMaxCompletionTokens} false deletes max_completion_tokens instead of setting it to 1 (TensorRT-LLM rejects the
     * key, reference §1.4).
     */
    public static TopLevelJson oneToken(TopLevelJson body, boolean keepMaxCompletionTokens) {
        body.set(MAX_TOKENS, 1).set(STREAM, false).remove(STREAM_OPTIONS).remove(MIN_TOKENS);
        return keepMaxCompletionTokens ? body.set(MAX_COMPLETION_TOKENS, 1) : body.remove(MAX_COMPLETION_TOKENS);
    }
}
