package io.pdgateway.server.routing;

import io.pdgateway.core.cache.BlockHasher;
import io.pdgateway.core.config.PrefixTokenizerType;
import io.pdgateway.core.session.PromptFeatures;
import io.pdgateway.core.session.PromptNeeds;
import io.pdgateway.server.front.OpenAiRequest;
import java.nio.charset.StandardCharsets;

/**
 * Measures what routing reads from a prompt: its length in tokens and its prefix-block hashes (the gateway's
 * {@link BlockHasher} chain over the prompt's tokens, in the prefix-cache model's block size), only as far as the
 * request's {@link PromptNeeds} ask. Long prompts cost milliseconds of CPU, so the caller moves those off the event
 * loop ({@link #expensive}).
 */
public final class PromptMeasurer {
    /**
     * Prompts longer than this many characters are tokenized on a worker thread: cl100k over ~32 KB of text takes
     * milliseconds, long enough to delay every other stream on the same event loop.
     */
    static final int INLINE_MAX_CHARS = 32 * 1024;
    /** The character tokenizer's token: four bytes of UTF-8 (reference §7: upstream's 4-byte blocks). */
    static final int BYTES_PER_CHARACTER_TOKEN = 4;

    private final PrefixTokenizerType tokenizer;
    private final int blockTokens;

    public PromptMeasurer(PrefixTokenizerType tokenizer, int blockTokens) {
        this.tokenizer = tokenizer;
        this.blockTokens = blockTokens;
    }

    public PromptFeatures measure(OpenAiRequest request, PromptNeeds needs) {
        int[] tokenIds = null;
        int tokens;
        if (needs.blockHashes()) {
            tokenIds = tokenizer == PrefixTokenizerType.TIKTOKEN ? PromptTokenizer.encode(request.promptText())
                    : characterTokens(request.promptText());
        }
        if (request.promptTokenIds() >= 0) {
            tokens = request.promptTokenIds();
        } else if (tokenIds != null && tokenizer == PrefixTokenizerType.TIKTOKEN) {
            tokens = tokenIds.length;
        } else if (needs.tokenCount()) {
            tokens = PromptTokenizer.count(request.promptText());
        } else {
            tokens = request.promptText().length() / PromptFeatures.BYTES_PER_TOKEN_ESTIMATE;
        }
        long[] hashes = tokenIds == null ? null
                : BlockHasher.chain(BlockHasher.seed(request.model()), tokenIds, tokenIds.length, blockTokens);
        return new PromptFeatures(tokens, hashes, request.raw().length / PromptFeatures.BYTES_PER_TOKEN_ESTIMATE);
    }

    /** The prompt's UTF-8 bytes, four to a token (a trailing partial token is dropped: it never fills a block). */
    static int[] characterTokens(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        int[] tokens = new int[bytes.length / BYTES_PER_CHARACTER_TOKEN];
        for (int i = 0; i < tokens.length; i++) {
            int b = i * BYTES_PER_CHARACTER_TOKEN;
            tokens[i] = (bytes[b] & 0xff) << 24 | (bytes[b + 1] & 0xff) << 16 | (bytes[b + 2] & 0xff) << 8
                    | bytes[b + 3] & 0xff;
        }
        return tokens;
    }

    /** True when measuring is worth moving off the event loop. */
    public static boolean expensive(OpenAiRequest request, PromptNeeds needs) {
        return (needs.tokenCount() || needs.blockHashes()) && request.promptText().length() > INLINE_MAX_CHARS;
    }
}
