package io.pdgateway.workload.prompt;

import java.util.SplittableRandom;

/**
 * Prompt text of a given token length. Traces carry lengths, not text. Every word below is three letters, written
 * with its leading space: four characters and exactly one cl100k_base token. So N words are N tokens for the
 * gateway's tokenizer (bucketing), N tokens for the simulator's characters/4 estimate, and 4N characters for the
 * prefix caches (4-character blocks in the gateway, 64-character blocks in the simulator): text built from segments
 * stays block-aligned, and two prompts that share segments share the exact same prefix.
 */
public final class PromptSynthesizer {
    /** Characters per word and per token: a space and three letters. */
    public static final int CHARS_PER_TOKEN = 4;

    private static final String[] WORDS = {
        "the", "and", "for", "are", "but", "not", "you", "all", "any", "can", "had", "her", "was", "one", "our", "out",
        "day", "get", "has", "him", "his", "how", "man", "new", "now", "old", "see", "two", "way", "who", "boy", "did",
        "its", "let", "put", "say", "she", "too", "use", "sea", "sun", "sky", "air", "art", "car", "cat", "dog", "end",
        "eye", "far", "few", "fun", "hot", "job", "key", "law", "map", "men", "off", "oil", "own", "pay", "red", "run",
    };

    private PromptSynthesizer() {}

    /** {@code tokens} words drawn from {@code seed}: the same seed always gives the same text. */
    public static String text(int tokens, long seed) {
        StringBuilder text = new StringBuilder(tokens * CHARS_PER_TOKEN);
        append(text, tokens, seed);
        return text.toString();
    }

    /**
     * Appends {@code tokens} words drawn from {@code seed}. A shorter run with the same seed is a prefix of a longer
     * one, so a trace's last, partial block shares its text with the full block of the same id.
     */
    public static void append(StringBuilder text, int tokens, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < tokens; i++) {
            text.append(' ').append(WORDS[random.nextInt(WORDS.length)]);
        }
    }
}
