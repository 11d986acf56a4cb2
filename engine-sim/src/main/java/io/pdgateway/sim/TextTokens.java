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

    /** The text as a completion's prompt: with the tokenizer's special tokens, as engines add them by default. */
    PromptTokens of(String text, int blockSize);

    /** These tokens without special tokens added (a rendered chat prompt, or a request turning them off). */
    default TextTokens withoutSpecialTokens() {
        return this;
    }

    /** The template chat requests are rendered with before tokenizing; null: their contents are joined and counted. */
    default ChatTemplate chatTemplate() {
        return null;
    }

    /**
     * The tokenizer's ids, with the special tokens its post-processor adds (Llama's BOS first) unless told otherwise;
     * chat requests rendered with the template.
     */
    static TextTokens of(Tokenizer tokenizer, ChatTemplate chatTemplate) {
        return new Tokenized(tokenizer, chatTemplate, true);
    }

    /** A tokenizer's ids, with or without the special tokens it adds to a single text. */
    record Tokenized(Tokenizer tokenizer, ChatTemplate chatTemplate, boolean addSpecialTokens) implements TextTokens {
        @Override
        public PromptTokens of(String text, int blockSize) {
            int[] ids = addSpecialTokens ? tokenizer.encodeAddingSpecialTokens(text) : tokenizer.encode(text);
            long[] wide = new long[ids.length];
            for (int i = 0; i < ids.length; i++) {
                wide[i] = ids[i];
            }
            return PromptTokens.ofIds(wide, blockSize);
        }

        @Override
        public TextTokens withoutSpecialTokens() {
            return new Tokenized(tokenizer, chatTemplate, false);
        }
    }
}
