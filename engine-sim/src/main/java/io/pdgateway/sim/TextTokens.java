package io.pdgateway.sim;

import io.pdgateway.core.tokenize.ChatTemplate;
import io.pdgateway.core.tokenize.Tokenizer;

/**
 * How a simulated pod turns prompt text into tokens. By default text is counted, not tokenized (four characters to a
 * token); a pod that publishes KV-cache events tokenizes for real, because its events carry token ids that a gateway
 * must be able to reproduce from the prompt with the same tokenizer file, and renders chat requests with its chat
 * template first, as the engines do.
 */
@FunctionalInterface
public interface TextTokens {
    /** Four characters to a token, hashed as text (the default). */
    TextTokens CHARACTERS = PromptTokens::ofText;
    /** Four characters to a pseudo token id, for engines that report the ids (TensorRT-LLM). */
    TextTokens PSEUDO_IDS = PromptTokens::ofTextAsIds;

    PromptTokens of(String text, int blockSize);

    /** The template chat requests are rendered with before tokenizing; null: their contents are joined and counted. */
    default ChatTemplate chatTemplate() {
        return null;
    }

    /**
     * The tokenizer's ids (nothing prepended: the engines' chat path adds no special tokens either, the template
     * writes the BOS token itself), chat requests rendered with the template.
     */
    static TextTokens of(Tokenizer tokenizer, ChatTemplate chatTemplate) {
        return new TextTokens() {
            @Override
            public PromptTokens of(String text, int blockSize) {
                int[] ids = tokenizer.encode(text);
                long[] wide = new long[ids.length];
                for (int i = 0; i < ids.length; i++) {
                    wide[i] = ids[i];
                }
                return PromptTokens.ofIds(wide, blockSize);
            }

            @Override
            public ChatTemplate chatTemplate() {
                return chatTemplate;
            }
        };
    }
}
