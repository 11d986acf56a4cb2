package io.pdgateway.routingsim.workload;

/**
 * Chained KV-block hashes of a prompt described as content segments. Traces carry no text: a prompt is a run of
 * segments, each an id and a length in tokens (Mooncake: one 512-token block per hash id; Azure: one segment unique to
 * the request; synthetic: a shared system prompt, then turns). Token k of a segment is the content (id, k), so two
 * prompts share a block exactly when the tokens up to its end agree, and block i's hash covers every block before it,
 * as vLLM chains a block's hash with its parent's (engine-timing.md §3.3).
 */
public final class BlockHashes {
    private static final long SEED = 0x5DEECE66DL;

    private BlockHashes() {}

    /**
     * @param segmentIds content id of each segment
     * @param segmentTokens length of each segment in tokens (the last may be cut by {@code promptTokens})
     * @param promptTokens tokens of the prompt; a trailing partial block gets no hash (it is never cached)
     */
    public static long[] of(long[] segmentIds, int[] segmentTokens, int promptTokens, int blockSize) {
        long[] hashes = new long[promptTokens / blockSize];
        long parent = SEED;
        int segment = 0;
        int offset = 0;
        for (int block = 0; block < hashes.length; block++) {
            long h = parent;
            int need = blockSize;
            while (need > 0) {
                if (segment >= segmentIds.length) {
                    throw new IllegalArgumentException("segments hold fewer than " + promptTokens + " tokens");
                }
                int take = Math.min(need, segmentTokens[segment] - offset);
                // A run of consecutive tokens of one segment is fully described by its id, start and length.
                h = mix(h ^ mix(segmentIds[segment] + 0x632BE59BD9B4E019L * offset) ^ take);
                need -= take;
                offset += take;
                if (offset == segmentTokens[segment]) {
                    segment++;
                    offset = 0;
                }
            }
            parent = mix(h);
            hashes[block] = parent;
        }
        return hashes;
    }

    /** A prompt that shares nothing with any other: one segment whose id is unique to {@code requestKey}. */
    public static long[] unique(long requestKey, int promptTokens, int blockSize) {
        return of(new long[] {mix(requestKey ^ 0x7F4A7C15L) | Long.MIN_VALUE}, new int[] {promptTokens}, promptTokens,
                blockSize);
    }

    /** The SplitMix64 finaliser. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
