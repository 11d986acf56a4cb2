package io.pdgateway.bench.validate;

import java.util.SplittableRandom;

/**
 * Prompt text whose length both sides of the comparison agree on. engine-sim counts four characters as one token and
 * the gateway's bucketing counts cl100k tokens, so the text is made of three-letter words, each a single cl100k token
 * with its space: N words are 4·N characters, N engine tokens and about N cl100k tokens. Each prompt opens with four
 * characters unique to it, so no two prompts share a prefix block in the gateway's index or an engine's cache, as in
 * the simulator's Azure workload.
 */
final class ValidationPrompts {
    private static final String[] WORDS = {
        "the", "and", "for", "you", "are", "was", "not", "but", "all", "can", "had", "her", "one", "our", "out", "day",
        "get", "has", "him", "his", "how", "man", "new", "now", "old", "see", "two", "way", "who", "did", "its", "let",
        "put", "say", "she", "too", "use", "any",
    };
    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyz";

    private ValidationPrompts() {}

    /** Exactly {@code tokens} engine tokens (4·tokens characters). */
    static String text(int tokens, int index) {
        SplittableRandom random = new SplittableRandom(index * 0x9E3779B97F4A7C15L + 17);
        StringBuilder text = new StringBuilder(tokens * 4);
        // A unique first block: "q" and the index in three base-26 letters, then a space.
        text.append('q').append(LETTERS.charAt(index / 676 % 26)).append(LETTERS.charAt(index / 26 % 26))
                .append(LETTERS.charAt(index % 26));
        for (int i = 1; i < tokens; i++) {
            text.append(' ');
            text.append(WORDS[random.nextInt(WORDS.length)], 0, 3);
        }
        return text.toString();
    }
}
