package io.pdgateway.engine;

/**
 * What an engine's own {@code POST /tokenize} takes, for a gateway that asks a pod for a prompt's tokens instead of
 * tokenizing it itself.
 */
public enum TokenizeSupport {
    /** No such endpoint (TensorRT-LLM's server has none). */
    NONE,
    /** {@code {"model", "prompt"}} only: SGLang, whose endpoint does not render chat messages. */
    PROMPTS,
    /** Prompts, and chat messages rendered with the model's chat template: vLLM. */
    PROMPTS_AND_MESSAGES;

    /** Whether a request of that kind can be tokenized here. */
    public boolean takes(boolean chat) {
        return this == PROMPTS_AND_MESSAGES || this == PROMPTS && !chat;
    }
}
