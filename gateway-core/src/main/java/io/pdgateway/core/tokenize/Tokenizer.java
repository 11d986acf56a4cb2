package io.pdgateway.core.tokenize;

/**
 * Text to token ids as a model's engine computes them, so the gateway's prefix hashes match the blocks the engine
 * reports in its KV events. Added tokens written in the text (a chat template's {@code <|eot_id|>}) become their ids;
 * nothing is prepended (engines tokenize rendered chat prompts without adding special tokens). Thread-safe.
 */
public interface Tokenizer {
    int[] encode(String text);

    /** The text of these ids; added tokens appear as written. */
    String decode(int[] ids);
}
