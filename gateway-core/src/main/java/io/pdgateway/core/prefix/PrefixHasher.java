package io.pdgateway.core.prefix;

import java.nio.charset.StandardCharsets;

/**
 * Chained block hashes of a prompt (reference §7): block i's hash covers every byte before it, so two prompts share
 * block i's hash exactly when they share the first (i+1) blocks. A trailing partial block is ignored. The model is
 * folded into the seed, so one index serves every model without mixing them.
 */
public final class PrefixHasher {
    /** Reference §7: AIBRIX_PREFIX_CACHE_BLOCK_SIZE defaults to 4 bytes (4 characters, or one tiktoken token). */
    public static final int DEFAULT_BLOCK_SIZE = 4;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private PrefixHasher() {}

    public static long[] hash(String model, byte[] data, int blockSize) {
        int blocks = data.length / blockSize;
        long[] hashes = new long[blocks];
        long parent = mix(seed(model));
        for (int b = 0; b < blocks; b++) {
            long h = parent;
            int base = b * blockSize;
            for (int i = 0; i < blockSize; i++) {
                h = (h ^ (data[base + i] & 0xff)) * GOLDEN;
            }
            parent = mix(h);
            hashes[b] = parent;
        }
        return hashes;
    }

    /** cl100k token ids as 4 big-endian bytes each: the "tiktoken" tokenizer's input to {@link #hash}. */
    public static byte[] tokenBytes(int[] tokenIds) {
        byte[] out = new byte[tokenIds.length * 4];
        for (int i = 0; i < tokenIds.length; i++) {
            int t = tokenIds[i];
            out[4 * i] = (byte) (t >>> 24);
            out[4 * i + 1] = (byte) (t >>> 16);
            out[4 * i + 2] = (byte) (t >>> 8);
            out[4 * i + 3] = (byte) t;
        }
        return out;
    }

    private static long seed(String model) {
        long h = 1125899906842597L;
        for (byte b : model.getBytes(StandardCharsets.UTF_8)) {
            h = 31 * h + b;
        }
        return h;
    }

    /** The SplitMix64 finaliser: spreads every input bit over the whole word. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
