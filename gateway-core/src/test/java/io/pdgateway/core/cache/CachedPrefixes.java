package io.pdgateway.core.cache;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.PrefixLookup;

/** Test prefix caches: prompts as block hashes, and a model view in which given pods hold given prefixes. */
public final class CachedPrefixes {
    /** Capacity large enough that nothing is ever evicted in a test. */
    public static final int LARGE = 1_000_000;

    private final CacheModel view = new CacheModel();

    /** The block hashes of a prompt of {@code blocks} full blocks; prompts of the same seed share their blocks. */
    public static long[] prompt(int blocks, int seed) {
        int[] tokens = new int[blocks * BlockHasher.DEFAULT_BLOCK_TOKENS];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = seed * 100_000 + i;
        }
        return BlockHasher.chain(BlockHasher.seed("m"), tokens, tokens.length, BlockHasher.DEFAULT_BLOCK_TOKENS);
    }

    /** The pod holds the first {@code blocks} blocks of the prompt (as if it served it and the request ended). */
    public CachedPrefixes holding(Pod pod, long[] prompt, int blocks) {
        long[] prefix = java.util.Arrays.copyOf(prompt, blocks);
        view.release(view.hold(pod, prefix, LARGE));
        return this;
    }

    public CacheModel view() {
        return view;
    }

    /** The prompt looked up in this view over the model's pods. */
    public PrefixLookup lookup(long[] prompt, ModelPods model) {
        return new PrefixLookup(view, prompt, model, BlockHasher.DEFAULT_BLOCK_TOKENS);
    }
}
