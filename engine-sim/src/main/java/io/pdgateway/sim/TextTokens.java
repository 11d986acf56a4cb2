package io.pdgateway.sim;

import io.pdgateway.core.tokenize.Tokenizer;

/**
 * How a simulated pod turns prompt text into tokens. By default text is counted, not tokenized (four characters to a
 * token); a pod that publishes KV-cache events tokenizes for real, because its events carry token ids that a gateway
 * must be able to reproduce from the prompt with the same tokenizer file.
 */
@FunctionalInterface
public interface TextTokens {
    /** Four characters to a token, hashed as text (the default). */
    TextTokens CHARACTERS = PromptTokens::ofText;
    /** Four characters to a pseudo token id, for engines that report the ids (TensorRT-LLM). */
    TextTokens PSEUDO_IDS = PromptTokens::ofTextAsIds;

    PromptTokens of(String text, int blockSize);

    /** The tokenizer's ids (nothing prepended: the engines' chat path adds no special tokens either). */
    static TextTokens of(Tokenizer tokenizer) {
        return (text, blockSize) -> {
            int[] ids = tokenizer.encode(text);
            long[] wide = new long[ids.length];
            for (int i = 0; i < ids.length; i++) {
                wide[i] = ids[i];
            }
            return PromptTokens.ofIds(wide, blockSize);
        };
    }
}
