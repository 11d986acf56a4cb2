package io.pdgateway.workload.prompt;

import java.util.ArrayList;
import java.util.List;

/**
 * How to build one request's prompt: segments of synthetic text, each drawn from its own seed. Text is built only
 * when the request is sent (a Mooncake hour holds gigabytes of prompt text; its plans hold a few megabytes). Two
 * plans that start with the same segments give prompts that start with the same text, which is what makes prefix
 * caches and prefix-aware routing matter.
 */
public record PromptPlan(List<Segment> segments) {
    /** One run of text: {@code tokens} words drawn from {@code seed}. */
    public record Segment(long seed, int tokens) {
        public Segment {
            if (tokens < 0) {
                throw new IllegalArgumentException("segment tokens must be >= 0, got " + tokens);
            }
        }
    }

    public PromptPlan {
        segments = List.copyOf(segments);
    }

    /** A prompt of {@code tokens} tokens that shares nothing with any other seed's. */
    public static PromptPlan single(int tokens, long seed) {
        return new PromptPlan(List.of(new Segment(seed, tokens)));
    }

    /**
     * A seed for item {@code id} of a family of texts (trace blocks, system prompts, session turns), so that two
     * families never draw the same text for the same id. The finaliser is SplitMix64's, which spreads nearby inputs.
     */
    public static long seed(long family, long id) {
        long z = family * 0x9E3779B97F4A7C15L + id;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public int tokens() {
        int total = 0;
        for (Segment segment : segments) {
            total += segment.tokens();
        }
        return total;
    }

    /** This plan followed by another segment (a new turn of a conversation). */
    public PromptPlan plus(Segment segment) {
        List<Segment> longer = new ArrayList<>(segments);
        longer.add(segment);
        return new PromptPlan(longer);
    }

    /** The first {@code maxTokens} tokens of this prompt (the same text, cut), or this plan when it is not longer. */
    public PromptPlan truncated(int maxTokens) {
        if (tokens() <= maxTokens) {
            return this;
        }
        List<Segment> kept = new ArrayList<>();
        int left = maxTokens;
        for (Segment segment : segments) {
            if (left <= 0) {
                break;
            }
            kept.add(new Segment(segment.seed(), Math.min(left, segment.tokens())));
            left -= segment.tokens();
        }
        return new PromptPlan(kept);
    }

    /** The prompt text: {@link PromptSynthesizer#CHARS_PER_TOKEN} characters per token. */
    public String text() {
        StringBuilder text = new StringBuilder(tokens() * PromptSynthesizer.CHARS_PER_TOKEN);
        for (Segment segment : segments) {
            PromptSynthesizer.append(text, segment.tokens(), segment.seed());
        }
        return text.toString();
    }
}
