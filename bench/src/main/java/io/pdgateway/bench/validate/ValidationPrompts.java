package io.pdgateway.bench.validate;

import io.pdgateway.routingsim.workload.SimRequest;
import io.pdgateway.workload.prompt.PromptPlan;
import io.pdgateway.workload.prompt.PromptSynthesizer;

/**
 * Prompt text that carries the simulated request's prefix structure to the loopback engines. Each of the request's
 * KV blocks (the simulator's chained block hashes) becomes {@code blockTokens} words drawn from that hash, and the rest
 * of the prompt words drawn from the request's own index. Block hashes are chained, so two requests share block i's
 * text exactly when the simulator has them share their first i + 1 blocks: the engine-sim prefix caches then see the
 * hits the simulator's engines see, and the gateway's prefix hashes see the same sharing. Every word is four characters
 * and one token for both engine-sim and cl100k (see {@link PromptSynthesizer}), so blocks stay aligned.
 */
final class ValidationPrompts {
    /** Seed families (any constants no other prompt family uses): a block's text by its hash, the tail by index. */
    static final long BLOCK_FAMILY = 0x5_1B_10CL;
    static final long TAIL_FAMILY = 0x5_1B_7A1L;

    private ValidationPrompts() {}

    /** Exactly {@code request.promptTokens()} engine tokens, blocks first. */
    static String text(SimRequest request, int blockTokens) {
        int left = request.promptTokens();
        StringBuilder text = new StringBuilder(left * PromptSynthesizer.CHARS_PER_TOKEN);
        for (long hash : request.blockHashes()) {
            if (left < blockTokens) {
                break;
            }
            PromptSynthesizer.append(text, blockTokens, PromptPlan.seed(BLOCK_FAMILY, hash));
            left -= blockTokens;
        }
        if (left > 0) {
            PromptSynthesizer.append(text, left, PromptPlan.seed(TAIL_FAMILY, request.index()));
        }
        return text.toString();
    }

    /** A prompt of {@code tokens} words that shares no block with any request of the run (warm-up traffic). */
    static String unshared(int tokens, int index) {
        return PromptSynthesizer.text(tokens, PromptPlan.seed(TAIL_FAMILY, -1L - index));
    }
}
