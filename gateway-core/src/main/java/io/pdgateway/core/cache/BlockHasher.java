package io.pdgateway.core.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Chained hashes of a token sequence in fixed-size blocks, the way engines key their prefix caches: block i's hash
 * covers its own tokens and every token before it, so two prompts share block i's hash exactly when they share their
 * first (i + 1) · size tokens. A trailing partial block has no hash (engines cache only full blocks). The model seeds
 * the chain, so one table can hold every model's blocks without mixing them.
 *
 * <p>These are the gateway's own hashes, not an engine's (vLLM seeds its hash per process): blocks an engine reports
 * in KV events are re-keyed by their token ids with {@link #next}, so both sides agree on content alone.
 */
public final class BlockHasher {
    /** vLLM's default KV block size, in tokens (the engines' prefix caches work in blocks of this many tokens). */
    public static final int DEFAULT_BLOCK_TOKENS = 16;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private BlockHasher() {}

    /** The chain's starting value for one model: the "parent" of its first block. */
    public static long seed(String model) {
        long h = 1125899906842597L;
        for (byte b : model.getBytes(StandardCharsets.UTF_8)) {
            h = 31 * h + b;
        }
        return mix(h);
    }

    /** The hash of the block {@code tokens[from, from + blockTokens)} whose predecessor's hash is {@code parent}. */
    public static long next(long parent, int[] tokens, int from, int blockTokens) {
        long h = parent;
        for (int i = from, end = from + blockTokens; i < end; i++) {
            h = (h ^ (tokens[i] & 0xffffffffL)) * GOLDEN;
        }
        return mix(h);
    }

    /** The hashes of every full block of {@code tokens}, in order. */
    public static long[] chain(long seed, int[] tokens, int length, int blockTokens) {
        long[] hashes = new long[length / blockTokens];
        long parent = seed;
        for (int b = 0; b < hashes.length; b++) {
            parent = next(parent, tokens, b * blockTokens, blockTokens);
            hashes[b] = parent;
        }
        return hashes;
    }

    /**
     * {@link #chain} of {@code tokens} tokens that are the big-endian four-byte words of {@code bytes} (token i is
     * bytes 4i to 4i + 3): the character tokenizer's tokens, hashed where they lie instead of copied into an array.
     */
    public static long[] chainOfWords(long seed, byte[] bytes, int tokens, int blockTokens) {
        long[] hashes = new long[tokens / blockTokens];
        long parent = seed;
        for (int b = 0; b < hashes.length; b++) {
            long h = parent;
            for (int i = b * blockTokens * Integer.BYTES, end = i + blockTokens * Integer.BYTES; i < end;
                    i += Integer.BYTES) {
                h = (h ^ ((int) WORDS.get(bytes, i) & 0xffffffffL)) * GOLDEN;
            }
            parent = mix(h);
            hashes[b] = parent;
        }
        return hashes;
    }

    /** The SplitMix64 finaliser: spreads every input bit over the whole word. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
