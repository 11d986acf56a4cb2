package io.pdgateway.server.demo;

import java.util.SplittableRandom;

/**
 * Prompt text of a given token length. Traces carry lengths, not text; each word below is a single cl100k_base token
 * (with its leading space), so N words make a prompt of about N tokens, which is what bucketing measures.
 */
public final class PromptSynthesizer {
    private static final String[] WORDS = {
        "the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "was", "with", "be", "by", "on", "not",
        "he", "this", "are", "or", "his", "from", "at", "which", "but", "have", "an", "had", "they", "you", "were",
        "their", "one", "all", "we", "can", "her", "has", "there", "been", "if", "more", "when", "will", "would",
        "who", "so", "no", "time", "world", "water", "light", "model", "system", "data", "river", "city", "house",
    };

    private PromptSynthesizer() {}

    public static String text(int tokens, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        StringBuilder text = new StringBuilder(tokens * 5);
        for (int i = 0; i < tokens; i++) {
            if (i > 0) {
                text.append(' ');
            }
            text.append(WORDS[random.nextInt(WORDS.length)]);
        }
        return text.toString();
    }
}
