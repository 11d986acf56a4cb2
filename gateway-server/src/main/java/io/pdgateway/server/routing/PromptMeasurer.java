package io.pdgateway.server.routing;

import io.pdgateway.core.config.PrefixTokenizerType;
import io.pdgateway.core.prefix.PrefixHasher;
import io.pdgateway.core.session.PromptFeatures;
import io.pdgateway.core.session.PromptNeeds;
import io.pdgateway.server.front.OpenAiRequest;
import java.nio.charset.StandardCharsets;

/**
 * Measures what routing reads from a prompt: its length in tokens and its prefix-block hashes, only as far as the
 * request's {@link PromptNeeds} ask. Long prompts cost milliseconds of CPU, so the caller moves those off the event
 * loop ({@link #expensive}).
 */
public final class PromptMeasurer {
    /**
     * Prompts longer than this many characters are tokenized on a worker thread: cl100k over ~32 KB of text takes
     * milliseconds, long enough to delay every other stream on the same event loop.
     */
    static final int INLINE_MAX_CHARS = 32 * 1024;

    private final PrefixTokenizerType tokenizer;

    public PromptMeasurer(PrefixTokenizerType tokenizer) {
        this.tokenizer = tokenizer;
    }

    public PromptFeatures measure(OpenAiRequest request, PromptNeeds needs) {
        boolean tiktokenHashes = needs.blockHashes() && tokenizer == PrefixTokenizerType.TIKTOKEN;
        int[] tokenIds = null;
        int tokens;
        if (request.promptTokenIds() >= 0) {
            tokens = request.promptTokenIds();
        } else if (tiktokenHashes) {
            tokenIds = PromptTokenizer.encode(request.promptText());
            tokens = tokenIds.length;
        } else if (needs.tokenCount()) {
            tokens = PromptTokenizer.count(request.promptText());
        } else {
            tokens = request.promptText().length() / PromptFeatures.BYTES_PER_TOKEN_ESTIMATE;
        }
        long[] hashes = null;
        if (needs.blockHashes()) {
            byte[] data = tokenIds != null ? PrefixHasher.tokenBytes(tokenIds)
                    : request.promptText().getBytes(StandardCharsets.UTF_8);
            hashes = PrefixHasher.hash(request.model(), data, PrefixHasher.DEFAULT_BLOCK_SIZE);
        }
        return new PromptFeatures(tokens, hashes, request.raw().length / PromptFeatures.BYTES_PER_TOKEN_ESTIMATE);
    }

    /** True when measuring is worth moving off the event loop. */
    public static boolean expensive(OpenAiRequest request, PromptNeeds needs) {
        return (needs.tokenCount() || needs.blockHashes()) && request.promptText().length() > INLINE_MAX_CHARS;
    }
}
