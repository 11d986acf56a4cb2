package io.pdgateway.core.tokenize;

/**
 * Text to token ids as a model's engine computes them, so the gateway's prefix hashes match the blocks the engine
 * reports in its KV events. Added tokens written in the text (a chat template's {@code <|eot_id|>}) become their ids;
 * {@link #encode} prepends nothing (engines tokenize rendered chat prompts without adding special tokens), while
 * {@link #encodeAddingSpecialTokens} adds what a completion's prompt gets. Thread-safe.
 */
public interface Tokenizer {
    int[] encode(String text);

    /**
     * As an engine tokenizes a completion's prompt ({@code add_special_tokens}, its default there): with the special
     * tokens the tokenizer's post-processor puts around a text (Llama's BOS first). None by default.
     */
    default int[] encodeAddingSpecialTokens(String text) {
        return encode(text);
    }

    /** The text of these ids; added tokens appear as written. */
    String decode(int[] ids);
}
